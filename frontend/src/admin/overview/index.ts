export { Overview } from './Overview';
