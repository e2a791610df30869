import fs from 'node:fs';
import path from 'node:path';
import type { RunningHangar } from './hangar-process';
import { apiClient } from './http-client';
import { fixturesDir, uniqueName } from './test-infrastructure';

const ATTEMPTS = 5;

/**
 * Uploads android.apk once per gateway replica, each into an app of its own, repeating an
 * upload while it answers 503. For a Hangar started with short deadlines: they hold every
 * call, and the first calls of freshly started processes (first queries, first connections,
 * a parse worker's first package, code not yet compiled) on a CI machine busy with another
 * suite have passed them (stop 27: build-symbols' first upload; stop 28: http-timeouts'
 * first upload, both 503 on the two-replica run). After this, every process on an upload's
 * path has served one — the launcher's proxy and the gRPC channels take replicas in turn.
 */
export async function warmUp(hangar: RunningHangar): Promise<void> {
  const api = apiClient(hangar.baseUrl);
  const data = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
  for (let upload = 0; upload < hangar.replicas; upload++) {
    const name = uniqueName('Warm-up');
    for (let attempt = 1; ; attempt++) {
      const response = await api('POST', '/api/apps/upload', { token: hangar.adminToken, form: { name }, files: { file: { data, fileName: 'android.apk' } } });
      if (response.status === 201) break;
      if (response.status !== 503 || attempt === ATTEMPTS) throw new Error(`warm-up upload: ${response.status} ${JSON.stringify(response.body)}`);
    }
  }
}
