/** The top navigation shown to everybody, in its order. */
export const NAV_ITEMS = [
  { to: '/', label: 'Home', end: true },
  { to: '/clinics', label: 'Clinics & Vets' },
  { to: '/ngo', label: "NGO's" },
  { to: '/adoption', label: 'Adoption' },
  { to: '/posts', label: 'Posts' },
  { to: '/contactus', label: 'Contact Us' },
  { to: '/faq', label: "FAQ's" },
  { to: '/chat', label: 'Inbox' },
] as const;

/** The footer is hidden on the chat screens. */
export const isChatPath = (pathname: string) => pathname === '/chat' || pathname.startsWith('/chat/');
export const isAdminPath = (pathname: string) =>
  pathname === '/admin-dashboard' || pathname.startsWith('/admin-dashboard/');

export const CONTACT_EMAIL = 'hello@pawhaven.pk';
