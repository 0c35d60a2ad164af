/**
 * "Saved" means stored: the server as a child process (test/helpers/child-server.ts) is killed
 * with SIGKILL in the same turn of the event loop in which a `@hocuspocus/provider` that types
 * continuously receives the sync status that leaves it with no unsaved change; after a restart,
 * the journal holds everything the provider had typed by then.
 * The typing stays under the endpoint's message rate (100 per second): a refused socket makes the
 * provider reconnect, and its count of unsaved changes means nothing after a reconnect (it restarts
 * at 1 and does not count what it queued meanwhile; docs/tiptap.md).
 */
import type { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { killChildServers, prepareDataDir, startChildServer } from '../helpers/child-server.ts';
import { blocks, Client } from '../helpers/server.ts';
import { blockText, type Editor, typeInto, waitFor } from './helpers.ts';
import { hocuspocusSocket, hpSynced, openDocument, type HpDoc } from './hocuspocus-helpers.ts';

/** About 80 updates per second, a fast typist's rate, under the message limit of 100 per second. */
const TYPING_INTERVAL_MS = 12;

const sockets: HocuspocusProviderWebsocket[] = [];
const docs: HpDoc[] = [];
afterEach(() => {
  for (const d of docs.splice(0)) d.provider.destroy();
  for (const s of sockets.splice(0)) s.destroy();
  killChildServers();
});

describe('hocuspocus durability', () => {
  it('kill -9 right after "saved" arrives loses nothing the provider was told is saved', { timeout: 120_000 }, async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    let id: string | undefined;
    for (let round = 0; round < 3; round++) {
      const server = await startChildServer(dataDir);
      const rest = new Client(server.url, key, orgId);
      id ??= await rest.importMarkdown('# Saved\n\nstart\n');
      const para = blocks(await rest.model(id!))[1]!.id;
      const socket = hocuspocusSocket(server.url);
      sockets.push(socket);
      const closes: string[] = [];
      socket.on('close', ({ event }: { event: { code: number; reason: string } }) => closes.push(`${event.code} ${event.reason}`));
      const d = openDocument(socket, id!, key);
      docs.push(d);
      await hpSynced(d);
      const asEditor = { doc: d.doc, fragment: d.fragment } as Editor;
      let typed = 0;
      let saved: string | undefined;
      let closedBefore: string[] | undefined;
      // At the status that leaves nothing unsaved, once enough was typed: what the provider holds
      // is all saved; the server dies in this very turn.
      d.provider.on('unsyncedChanges', ({ number }: { number: number }) => {
        if (number !== 0 || typed < 40 || saved !== undefined) return;
        saved = blockText(asEditor, para);
        closedBefore = [...closes];
        server.child.kill('SIGKILL');
      });
      const typer = (async () => {
        while (saved === undefined && closes.length === 0 && typed < 5000) {
          typeInto(asEditor, para, 0, `r${round}t${typed++} `);
          await new Promise((r) => setTimeout(r, TYPING_INTERVAL_MS));
        }
      })();
      await waitFor(() => saved !== undefined || closes.length > 0, '"saved" after typing', 30_000);
      await typer;
      expect(closedBefore ?? closes).toEqual([]); // no reconnect before "saved"
      await server.exited;
      d.provider.destroy();
      socket.destroy();
      docs.length = 0;
      sockets.length = 0;

      const again = await startChildServer(dataDir);
      const stored = blocks(await new Client(again.url, key, orgId).model(id!))[1]!.text;
      // Everything the provider was told is saved is there (later typing may or may not be).
      expect(stored.endsWith(saved!)).toBe(true);
      expect(saved).toContain(`r${round}t39 `);
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });
});
