import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STEP_CATALOG, STEP_NAMES, type StepName } from '@csp/batch';
import { UPSTREAM_ENV } from '@csp/gateway/config';
import { stringify } from 'yaml';

/**
 * Writes infra/k8s/base from the step catalog (one worker Deployment and one KEDA ScaledObject per step
 * queue), so a new step cannot be forgotten: `pnpm --filter @csp/ops k8s:generate`. The CI test
 * (test/k8s-manifests.test.ts) validates what is committed.
 */

export const BASE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../k8s/base');
export const METRICS_PORT = 9464;
export const BATCH_PREFIX = 'csp';
export const SERVICES = {
  gateway: 8080,
  'auth-platform': 8101,
  'master-data': 8102,
  intake: 8103,
  'ledger-settlement': 8104,
  'payment-tax': 8105,
  analytics: 8106,
} as const;
type Service = keyof typeof SERVICES;

const kebab = (step: string) => step.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const workerName = (step: StepName) => `worker-${kebab(step)}`;
const image = (service: string) => `commission-platform/${service}:latest`;
const labels = (name: string, component: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': component });

const fromConfig = (key: string) => ({ name: key, valueFrom: { configMapKeyRef: { name: 'csp-config', key } } });
const fromSecret = (key: string) => ({ name: key, valueFrom: { secretKeyRef: { name: 'csp-secrets', key } } });
const otelEnv = [fromConfig('OTEL_EXPORTER_OTLP_ENDPOINT'), fromConfig('OTEL_TRACES_EXPORTER')];

function serviceEnv(service: Service): object[] {
  if (service === 'gateway') {
    return [
      fromConfig('NODE_ENV'),
      fromConfig('LOG_LEVEL'),
      fromConfig('REDIS_URL'),
      fromConfig('BATCH_PREFIX'),
      fromConfig('METRICS_PORT'),
      { name: 'PORT', value: String(SERVICES.gateway) },
      ...Object.entries(SERVICES)
        .filter(([s]) => s !== 'gateway')
        .map(([s, port]) => ({ name: UPSTREAM_ENV[s as keyof typeof UPSTREAM_ENV].env, value: `http://${s}:${port}` })),
      ...otelEnv,
    ];
  }
  return [
    fromConfig('NODE_ENV'),
    fromConfig('LOG_LEVEL'),
    fromConfig('REDIS_URL'),
    fromConfig('METRICS_PORT'),
    fromSecret('DATABASE_URL'),
    // A streaming replica for the read path; a Secret without the key = reads on the primary.
    { name: 'DATABASE_READ_URL', valueFrom: { secretKeyRef: { name: 'csp-secrets', key: 'DATABASE_READ_URL', optional: true } } },
    fromSecret('JWT_SECRET'),
    fromSecret('ENCRYPT_KEY'),
    { name: 'PORT', value: String(SERVICES[service]) },
    ...(service === 'auth-platform' ? [fromSecret('ADMIN_PASSWORD')] : []),
    ...(service === 'ledger-settlement' ? [fromConfig('BATCH_PREFIX')] : []),
    ...otelEnv,
  ];
}

const metricsAnnotations = {
  'prometheus.io/scrape': 'true',
  'prometheus.io/port': String(METRICS_PORT),
  'prometheus.io/path': '/metrics',
};

function serviceDeployment(service: Service): object[] {
  const port = SERVICES[service];
  const health = { httpGet: { path: '/api/health', port: 'http' } };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: service, labels: labels(service, 'service') },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels(service, 'service') },
        template: {
          metadata: { labels: labels(service, 'service'), annotations: metricsAnnotations },
          spec: {
            containers: [
              {
                name: service,
                image: image(service),
                args: ['node', `services/${service}/dist/server.js`],
                ports: [
                  { name: 'http', containerPort: port },
                  { name: 'metrics', containerPort: METRICS_PORT },
                ],
                env: serviceEnv(service),
                readinessProbe: { ...health, periodSeconds: 10, failureThreshold: 3 },
                livenessProbe: { ...health, initialDelaySeconds: 30, periodSeconds: 20, failureThreshold: 3 },
                resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '768Mi' } },
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: service, labels: labels(service, 'service') },
      spec: {
        selector: labels(service, 'service'),
        ports: [
          { name: 'http', port, targetPort: 'http' },
          { name: 'metrics', port: METRICS_PORT, targetPort: 'metrics' },
        ],
      },
    },
  ];
}

/** The one worker group that also serves the what-if simulations' queue (ledger-settlement worker.ts, off elsewhere). */
const SIMULATION_WORKER_STEP: StepName = 'aggregate';

function workerDeployment(step: StepName): object {
  const { service } = STEP_CATALOG[step];
  const name = workerName(step);
  const live = { httpGet: { path: '/metrics', port: 'metrics' } };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { ...labels(name, 'batch-worker'), 'csp/step': step } },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels(name, 'batch-worker') },
      template: {
        metadata: { labels: { ...labels(name, 'batch-worker'), 'csp/step': step }, annotations: metricsAnnotations },
        spec: {
          // A running chunk finishes (or goes back to its queue) before the pod is gone.
          terminationGracePeriodSeconds: 120,
          containers: [
            {
              name: 'worker',
              image: image(service),
              args: ['node', `services/${service}/dist/worker.js`],
              ports: [{ name: 'metrics', containerPort: METRICS_PORT }],
              env: [
                fromConfig('LOG_LEVEL'),
                fromConfig('REDIS_URL'),
                fromConfig('BATCH_PREFIX'),
                fromConfig('METRICS_PORT'),
                fromSecret('DATABASE_URL'),
                { name: 'BATCH_STEPS', value: step },
                ...(step === SIMULATION_WORKER_STEP ? [{ name: 'SIMULATION_WORKER', value: 'true' }] : []),
                ...otelEnv,
              ],
              readinessProbe: { ...live, periodSeconds: 10 },
              livenessProbe: { ...live, initialDelaySeconds: 30, periodSeconds: 20 },
              resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { memory: '1536Mi' } },
            },
          ],
        },
      },
    },
  };
}

function scaledObject(step: StepName): object {
  const name = workerName(step);
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name, labels: { 'csp/step': step } },
    spec: {
      scaleTargetRef: { name },
      minReplicaCount: 1,
      maxReplicaCount: 8,
      pollingInterval: 15,
      cooldownPeriod: 300,
      triggers: [
        {
          type: 'redis',
          metadata: {
            address: 'redis.commission.svc:6379',
            // BullMQ's wait list of the step queue under the configured prefix (BATCH_PREFIX).
            listName: `${BATCH_PREFIX}:${STEP_CATALOG[step].queueName}:wait`,
            listLength: '5',
          },
        },
      ],
    },
  };
}

const migrationJob = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'db-migrate', labels: labels('db-migrate', 'migration') },
  spec: {
    backoffLimit: 3,
    template: {
      metadata: { labels: labels('db-migrate', 'migration') },
      spec: {
        restartPolicy: 'OnFailure',
        containers: [
          {
            name: 'migrate',
            image: image('ledger-settlement'),
            args: [
              'node',
              '--input-type=module',
              '-e',
              "const db = await import('/app/packages/db/dist/index.js'); const pool = db.createPool({ connectionString: process.env.DATABASE_URL }); await db.migrate(pool); await pool.end();",
            ],
            env: [fromSecret('DATABASE_URL')],
            resources: { requests: { cpu: '100m', memory: '128Mi' } },
          },
        ],
      },
    },
  },
};

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'csp-config' },
  data: {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    REDIS_URL: 'redis://redis:6379',
    BATCH_PREFIX,
    METRICS_PORT: String(METRICS_PORT),
    // Tracing is off while both are empty; set an OTLP endpoint (e.g. http://otel-collector:4318) to turn it on.
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    OTEL_TRACES_EXPORTER: '',
  },
};

export function manifests(): Record<string, object[]> {
  return {
    'configmap.yaml': [configMap],
    'services.yaml': (Object.keys(SERVICES) as Service[]).flatMap(serviceDeployment),
    'workers.yaml': STEP_NAMES.map(workerDeployment),
    'scaled-objects.yaml': STEP_NAMES.map(scaledObject),
    'migrate-job.yaml': [migrationJob],
  };
}

function write(): void {
  const files = manifests();
  for (const [file, docs] of Object.entries(files)) {
    const text = docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
    writeFileSync(join(BASE_DIR, file), `# Generated by infra/ops/src/k8s-generate.ts; edit there.\n${text}`);
  }
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: 'commission',
    resources: Object.keys(files),
  };
  writeFileSync(join(BASE_DIR, 'kustomization.yaml'), stringify(kustomization));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) write();
