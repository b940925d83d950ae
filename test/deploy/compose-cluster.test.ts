import { strict as assert } from 'node:assert';
import { stackPorts } from '../../src/devstack/production/settings';
import { CLUSTER_HISTORY_SHARDS, clusterTemporalProcesses } from '../../src/devstack/production/temporal';
import { environmentOf, loadCompose, loadComposeOverride, service, type Service } from '../support/compose';

/**
 * docker-compose.cluster.yml against `npm run stack:cluster` (clusterTemporalProcesses): the same
 * Temporal services in as many processes, the same shard count, every node configured as
 * docker-compose.yml's single server, and two replicas of the gateway's api and worker.
 */
describe('deployment: the cluster profile (docker-compose.cluster.yml) and npm run stack:cluster', () => {
  const base = loadCompose();
  const cluster = loadComposeOverride(base, 'docker-compose.cluster.yml');
  const nodes = Object.entries(cluster.services).filter(([, s]) => s.image?.startsWith('temporalio/server:'));
  const servicesOf = (s: Service) => environmentOf(s).SERVICES?.split(/[,:]/) ?? [];

  it('runs the same Temporal services, one process each, as the native cluster', () => {
    const compose = nodes.map(([, s]) => servicesOf(s).join('+')).sort();
    const native = clusterTemporalProcesses(stackPorts())
      .map((p) => p.services.join('+'))
      .sort();
    assert.deepEqual(compose, native);
    assert.deepEqual(compose, ['frontend', 'history', 'history', 'matching', 'worker']);
  });

  it('every node runs the release and the configuration of the single server, with the cluster shard count', () => {
    const single = environmentOf(service(base, 'temporal'));
    for (const [name, s] of nodes) {
      assert.equal(s.image, service(base, 'temporal').image, name);
      const { SERVICES: _services, NUM_HISTORY_SHARDS: shards, ...rest } = environmentOf(s);
      const { NUM_HISTORY_SHARDS: _singleShards, ...singleRest } = single;
      assert.deepEqual(rest, singleRest, `${name}: the single server's settings`);
      assert.equal(shards, String(CLUSTER_HISTORY_SHARDS), name);
      assert.deepEqual(s.volumes, service(base, 'temporal').volumes, `${name}: its certificates and dynamic config`);
    }
  });

  it('the frontend keeps the name the gateway, the admin job and the UI reach', () => {
    assert.deepEqual(servicesOf(service(cluster, 'temporal')), ['frontend']);
    assert.equal(environmentOf(service(cluster, 'api')).TEMPORAL_ADDRESS, 'temporal:7233');
  });

  it('runs two replicas of api and worker, as the native stack runs two of each', () => {
    for (const name of ['api', 'worker'])
      assert.equal((service(cluster, name) as Service & { deploy?: { replicas?: number } }).deploy?.replicas, 2, name);
    assert.equal(stackPorts().api.length, 2);
  });
});
