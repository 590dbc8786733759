export { ProjectionsPage } from './ProjectionsPage';
