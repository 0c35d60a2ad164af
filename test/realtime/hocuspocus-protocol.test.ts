/**
 * server/realtime/hocuspocus/protocol.ts, against what @hocuspocus/provider writes and reads:
 * frames split into address, document name and type; the y-websocket message inside a sync frame;
 * the auth token; the server's replies as the provider's own decoders read them.
 */
import { readAuthMessage } from '@hocuspocus/common';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { decodeClientMessage } from '../../server/realtime/protocol.ts';
import {
  encodeAuthenticated,
  encodeClose,
  encodePermissionDenied,
  encodeSyncStatus,
  HocuspocusType,
  innerMessage,
  MalformedFrame,
  readAuthToken,
  readFrame,
} from '../../server/realtime/hocuspocus/protocol.ts';

function clientFrame(address: string, type: number, write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, address);
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
}

describe('hocuspocus frames', () => {
  it('splits the address (with a session id) from the document name and the type', () => {
    const f = readFrame(clientFrame('journal-1\0abc', HocuspocusType.Auth, (e) => {
      encoding.writeVarUint(e, 0);
      encoding.writeVarString(e, 'sk_study_x');
      encoding.writeVarString(e, '4.8.0'); // the provider's version follows its token
    }));
    expect(f).toMatchObject({ address: 'journal-1\0abc', documentName: 'journal-1', type: HocuspocusType.Auth });
    expect(readAuthToken(f)).toBe('sk_study_x');
  });

  it('hands the y-websocket message inside sync and sync-reply frames to the shared decoder', () => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'hi');
    const update = Y.encodeStateAsUpdate(doc);
    for (const type of [HocuspocusType.Sync, HocuspocusType.SyncReply]) {
      const f = readFrame(clientFrame('j', type, (e) => syncProtocol.writeUpdate(e, update)));
      const m = decodeClientMessage(innerMessage(f));
      expect(m.kind).toBe('update');
      expect(m.kind === 'update' && [...m.update]).toEqual([...update]);
    }
  });

  it('refuses a frame that does not decode', () => {
    expect(() => readFrame(new Uint8Array([0x85]))).toThrow(MalformedFrame);
  });

  it('writes replies the provider reads: authenticated scope, denial, sync status, close', () => {
    const got: string[] = [];
    for (const frame of [encodeAuthenticated('j', 'readonly'), encodePermissionDenied('j', '404 Journal not found')]) {
      const d = decoding.createDecoder(frame);
      expect(decoding.readVarString(d)).toBe('j');
      expect(decoding.readVarUint(d)).toBe(HocuspocusType.Auth);
      readAuthMessage(d, () => got.push('token'), (r) => got.push(`denied ${r}`), (s) => got.push(`scope ${s}`));
    }
    expect(got).toEqual(['scope readonly', 'denied 404 Journal not found']);
    for (const saved of [true, false]) {
      const d = decoding.createDecoder(encodeSyncStatus('j', saved));
      decoding.readVarString(d);
      expect(decoding.readVarUint(d)).toBe(HocuspocusType.SyncStatus);
      expect(decoding.readVarInt(d) === 1).toBe(saved); // the provider reads a signed varint
    }
    const d = decoding.createDecoder(encodeClose('j', '4422 update refused: x'));
    decoding.readVarString(d);
    expect(decoding.readVarUint(d)).toBe(HocuspocusType.Close);
    expect(decoding.readVarString(d)).toBe('4422 update refused: x');
  });
});
