/**
 * The adoption capability: listing, create, own ads with requests, history.
 *
 * Pages are default exports of their own files so App.tsx can lazy-load each as its own chunk:
 *   lazy(() => import('./adoption/AdoptionPage'))
 * The panels are for the profile page's 'My Adoptions' and 'Adoption History' views.
 */
export { default as AdoptionPage } from './AdoptionPage';
export { default as CreateAdoptionPage } from './CreateAdoptionPage';
export { default as MyAdoptionsPage } from './MyAdoptionsPage';
export { default as AdoptionHistoryPage } from './AdoptionHistoryPage';
export { MyAdoptionsPanel } from './MyAdoptionsPanel';
export { AdoptionHistoryPanel } from './AdoptionHistoryPanel';
