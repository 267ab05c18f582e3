import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STEP_CATALOG, STEP_NAMES, type StepName } from '@csp/batch';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { BASE_DIR, manifests } from '../src/k8s-generate.js';

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

const kustomization = parseAllDocuments(readFileSync(join(BASE_DIR, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as {
  resources: string[];
};
const files = kustomization.resources.map((file) => ({
  file,
  docs: parseAllDocuments(readFileSync(join(BASE_DIR, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return d.toJS() as Doc;
  }),
}));
const docs = files.flatMap((f) => f.docs);
const byKind = (kind: string) => docs.filter((d) => d.kind === kind);

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'batch/v1/Job': Job,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

function container(d: Doc) {
  return d.spec.template.spec.containers[0];
}
function envValue(d: Doc, name: string): string | undefined {
  return container(d).env?.find((e: { name: string }) => e.name === name)?.value;
}

describe('Kubernetes manifests (infra/k8s/base)', () => {
  it('are what the generator writes from the step catalog (nobody edited them by hand)', () => {
    for (const [file, expected] of Object.entries(manifests())) {
      const committed = files.find((f) => f.file === file);
      expect(committed, file).toBeDefined();
      expect(committed!.docs.map((d) => stringify(d))).toEqual(expected.map((d) => stringify(d)));
    }
  });

  it("turns the simulations' queue on in exactly one worker group (worker.ts leaves it off by default)", () => {
    const on = byKind('Deployment').filter((d) => envValue(d, 'SIMULATION_WORKER') === 'true');
    expect(on.map((d) => d.metadata.name)).toEqual(['worker-aggregate']);
    expect(container(on[0]!).args).toEqual(['node', 'services/ledger-settlement/dist/worker.js']);
  });

  it('every document validates against its Kubernetes (or KEDA) schema', () => {
    expect(docs.length).toBe(1 + 7 * 2 + 13 + 13 + 1);
    for (const doc of docs) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${doc.apiVersion} ${doc.kind} has a model`).toBeDefined();
      expect(() => new Model!(doc).validate(), `${doc.kind} ${doc.metadata.name}`).not.toThrow();
    }
  });

  it('a schema violation is caught (the validation is real)', () => {
    const deployment = structuredClone(byKind('Deployment')[0]!);
    deployment.spec.replicas = 'two';
    expect(() => new Deployment(deployment as any).validate()).toThrow();
    const scaled = structuredClone(byKind('ScaledObject')[0]!);
    delete scaled.spec.scaleTargetRef;
    expect(() => new ScaledObject(scaled as any).validate()).toThrow();
  });

  it('each step queue has exactly one ScaledObject on its BullMQ wait list, targeting a Deployment that runs that step only', () => {
    const prefix = byKind('ConfigMap')[0]!.data!.BATCH_PREFIX!;
    const deployments = new Map(byKind('Deployment').map((d) => [d.metadata.name, d]));
    const seen = new Map<StepName, number>();
    for (const so of byKind('ScaledObject')) {
      const trigger = so.spec.triggers[0];
      expect(so.spec.triggers).toHaveLength(1);
      expect(trigger.type).toBe('redis');
      const match = /^(.+):(settlement\.\w+):wait$/.exec(trigger.metadata.listName as string);
      expect(match, trigger.metadata.listName).not.toBeNull();
      expect(match![1]).toBe(prefix);
      const step = STEP_NAMES.find((s) => STEP_CATALOG[s].queueName === match![2]);
      expect(step, match![2]).toBeDefined();
      seen.set(step!, (seen.get(step!) ?? 0) + 1);
      const target = deployments.get(so.spec.scaleTargetRef.name);
      expect(target, `deployment ${so.spec.scaleTargetRef.name}`).toBeDefined();
      expect(envValue(target!, 'BATCH_STEPS')).toBe(step);
      // the worker image/entry of the service that hosts the step
      expect(container(target!).args).toEqual(['node', `services/${STEP_CATALOG[step!].service}/dist/worker.js`]);
      const prefixRef = container(target!).env.find((e: { name: string }) => e.name === 'BATCH_PREFIX');
      expect(prefixRef.valueFrom.configMapKeyRef).toEqual({ name: 'csp-config', key: 'BATCH_PREFIX' });
    }
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(STEP_NAMES.map((s) => [s, 1])));
  });

  it('every service Deployment probes its health endpoint, requests resources and has a Service on its port', () => {
    const services = new Map(byKind('Service').map((s) => [s.metadata.name, s]));
    const serviceDeployments = byKind('Deployment').filter((d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'service');
    expect(serviceDeployments.map((d) => d.metadata.name).sort()).toEqual(
      ['analytics', 'auth-platform', 'gateway', 'intake', 'ledger-settlement', 'master-data', 'payment-tax'],
    );
    for (const d of serviceDeployments) {
      const c = container(d);
      expect(c.readinessProbe.httpGet.path).toBe('/api/health');
      expect(c.livenessProbe.httpGet.path).toBe('/api/health');
      expect(c.resources.requests.cpu).toBeDefined();
      expect(c.resources.requests.memory).toBeDefined();
      const port = Number(envValue(d, 'PORT'));
      expect(c.ports.find((p: { name: string }) => p.name === 'http').containerPort).toBe(port);
      expect(services.get(d.metadata.name)!.spec.ports.find((p: { name: string }) => p.name === 'http').port).toBe(port);
    }
    for (const d of byKind('Deployment')) {
      for (const e of container(d).env as Array<{ name: string; value?: string; valueFrom?: any }>) {
        if (/SECRET|KEY|PASSWORD|DATABASE_URL/.test(e.name)) expect(e.valueFrom?.secretKeyRef?.name, `${d.metadata.name} ${e.name}`).toBe('csp-secrets');
      }
    }
  });

  it('the migration Job runs the migrator of packages/db', () => {
    const [job] = byKind('Job');
    const script = container(job!).args.join(' ');
    expect(script).toContain('/app/packages/db/dist/index.js');
    expect(script).toContain('db.migrate(pool)');
    expect(readFileSync(join(BASE_DIR, '../../../packages/db/src/index.ts'), 'utf8')).toMatch(/migrate/);
  });
});
