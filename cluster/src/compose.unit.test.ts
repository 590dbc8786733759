import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '@pawhaven/platform';
import { KURRENTDB_IMAGE } from '@pawhaven/platform/testing/containers';
import { COMPOSE_NGINX, composeNginxConfig } from './compose';
import { ROOT } from './service-process';

/**
 * docker-compose.yml cannot be brought up here (no Docker engine): it is checked for what would break it — every
 * dependency and healthcheck condition, the services' settings through the same validation a start does, their entry
 * points, nginx's file in step with the cluster's, the image holding every workspace — and by `docker compose
 * config` where the tool exists.
 */
type Service = {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
};
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const ours = Object.entries(services).filter(([, s]) => s.image === 'pawhaven:local');

describe('docker-compose.yml', () => {
  it('has every part of the deployment, each with a healthcheck', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'command-api',
        'kafka',
        'kurrentdb',
        'mailpit',
        'nginx',
        'postgres',
        'projections',
        'query-api',
        'relay',
      ].sort(),
    );
    for (const [name, s] of Object.entries(services)) expect(s.healthcheck?.test, name).toBeDefined();
  });

  it('waits only for services that exist and say when they are healthy', () => {
    for (const [name, s] of Object.entries(services))
      for (const [on, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(services[on], `${name} depends on ${on}`).toBeDefined();
        expect(condition).toBe('service_healthy');
      }
  });

  it('gives our services settings a start accepts, and entry points that exist', () => {
    expect(ours.map(([n]) => n).sort()).toEqual(['command-api', 'projections', 'query-api', 'relay']);
    for (const [name, s] of ours) {
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
      const config = loadConfig(env);
      expect(config.DATABASE_URL, name).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(config.EVENT_STORE).toBe('kurrentdb');
      expect(config.KURRENTDB_URL).toMatch(/^kurrentdb:\/\/kurrentdb:2113\b/);
      expect(s.depends_on?.kurrentdb?.condition, name).toBe('service_healthy');
      expect(config.EVENT_BUS).toBe('kafka');
      expect(config.KAFKA_BROKERS).toEqual(['kafka:9092']);
      expect(s.command!.slice(0, 2)).toEqual(['npx', 'tsx']);
      expect(existsSync(path.join(ROOT, s.command![2]!)), s.command![2]).toBe(true);
    }
  });

  it('runs the KurrentDB the container tests run', () => {
    expect(services.kurrentdb!.image).toBe(KURRENTDB_IMAGE);
  });

  it("mounts an nginx configuration in step with the cluster's (npm run compose:nginx)", () => {
    expect(services.nginx!.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(readFileSync(COMPOSE_NGINX, 'utf8')).toBe(composeNginxConfig());
  });

  it('builds an image with every workspace', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const { workspaces } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    for (const w of workspaces) expect(dockerfile, w).toContain(`COPY ${w}/package.json ${w}/`);
  });

  const docker = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  const noDocker = docker.status !== 0 ? 'the docker compose tool is not installed here' : null;
  if (noDocker) console.log(`docker compose config skipped: ${noDocker}`);
  it.skipIf(noDocker)('passes `docker compose config`', () => {
    const run = spawnSync('docker', ['compose', 'config', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });
});
