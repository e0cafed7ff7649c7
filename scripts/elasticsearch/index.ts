export { ES_VERSION, ES_ARTIFACT, ES_USER, CLUSTER_NAME, DEFAULT_JAVA_HOME, REPO_ROOT, esLayout, findJavaHome, javaMajor } from './config.ts';
export type { EsLayout, LayoutOptions } from './config.ts';
export { installElasticsearch } from './install.ts';
export type { InstallOptions } from './install.ts';
export { clusterHealth, isReady, serverVersion } from './health.ts';
export type { ClusterHealth } from './health.ts';
export { startElasticsearch, stopElasticsearch, runningUrl } from './server.ts';
export { buildPlugin, installPlugin, pluginSourceHash, PLUGIN_DIR, PLUGIN_NAME } from './plugin.ts';
export type { StartOptions, StopOptions, RunningElasticsearch } from './server.ts';
