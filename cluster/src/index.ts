export { ROOT, startService, type Service, type ServiceProcess } from './service-process';
export { clusterUnavailable, startCluster, type Cluster, type ClusterOptions } from './cluster';
