export { startApp, type RunningApp, type StartOptions } from './app';
