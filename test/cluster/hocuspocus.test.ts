/**
 * The Hocuspocus endpoint across instances (test/cluster/harness.ts, two real instances on one
 * PostgreSQL and one Redis, no periodic re-sync): a provider on A and a y-websocket editor on B
 * see each other's typing and awareness, and what the provider was told is saved is read on B.
 */
import type { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { blocks } from '../helpers/server.ts';
import { blockText, type Editor, editorBlocks, typeInto, waitFor } from '../realtime/helpers.ts';
import { hocuspocusSocket, hpSaved, hpSynced, openDocument, type HpDoc } from '../realtime/hocuspocus-helpers.ts';
import { allSynced, type Cluster, clusterAvailability, clusterSuite, type Instance } from './harness.ts';

const avail = await clusterAvailability();

describe.skipIf(!!avail.skipReason)('cluster: hocuspocus providers beside y-websocket editors', () => {
  let cluster: Cluster;
  clusterSuite({ redisUrl: avail.redisUrl!, instances: 2, env: { CLUSTER_RESYNC_MS: '0' } }, (c) => {
    cluster = c;
  });
  const sockets: HocuspocusProviderWebsocket[] = [];
  const docs: HpDoc[] = [];
  afterEach(() => {
    for (const d of docs.splice(0)) d.provider.destroy();
    for (const s of sockets.splice(0)) s.destroy();
  });

  it('a provider on A and an editor on B: typing, awareness and "saved" cross instances', { timeout: 60_000 }, async () => {
    const [A, B] = cluster.instances as [Instance, Instance];
    const { id, ids } = await cluster.journal(A, '# Title\n\nalpha\n');
    const socket = hocuspocusSocket(A.url);
    sockets.push(socket);
    const d = openDocument(socket, id, cluster.key);
    docs.push(d);
    const e = cluster.editor(B, id);
    await Promise.all([hpSynced(d), allSynced([e])]);
    const asEditor = { doc: d.doc, fragment: d.fragment } as Editor;
    typeInto(asEditor, ids[1]!, 0, 'from A ');
    await waitFor(() => blockText(e, ids[1]!) === 'from A alpha', 'B sees the provider', 20_000);
    await hpSaved(d);
    expect(blocks(await B.client.model(id))[1]!.text).toBe('from A alpha');
    typeInto(e, ids[1]!, 0, 'from B ');
    await waitFor(() => blockText(asEditor, ids[1]!) === 'from B from A alpha', 'A sees the editor', 20_000);
    d.provider.setAwarenessField('user', { name: 'Ada' });
    await waitFor(() => e.provider.awareness.getStates().get(d.doc.clientID)?.user?.name === 'Ada', "Ada's state on B", 20_000);
    e.provider.awareness.setLocalStateField('user', { name: 'Bo' });
    await waitFor(() => d.provider.awareness!.getStates().get(e.doc.clientID)?.user?.name === 'Bo', "Bo's state on A", 20_000);
    expect(editorBlocks(e).map((b) => b.text)).toEqual(['Title', 'from B from A alpha']);
  });
});
