export { ROOT, startService, type Service, type ServiceProcess } from './service-process';
