#!/usr/bin/env node
// The memory floor under the gateway's target: a Node HTTP server with nothing
// else loaded, which reads one request body and hashes it (as the gateway must)
// and answers its own RSS at rest and at peak. Whatever Node itself takes to
// receive a gigabyte (socket chunks the collector has not yet freed) shows here
// with no Hangar code in the process. Its CPU time for the body is the least any
// process that receives and hashes these bytes spends on them: the bench builds
// each mode's ceiling on this machine from it. Prints its port once listening.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const rss = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
let atRest = 0;
const server = http.createServer(async (req, res) => {
  const cpuAtStart = process.cpuUsage();
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of req) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  const sha256 = hash.digest('hex');
  const cpu = process.cpuUsage(cpuAtStart);
  res.end(JSON.stringify({ bytes, sha256, atRest, peak: rss('VmHWM'), cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
  server.close();
});
server.listen(0, '127.0.0.1', () => {
  // At rest once listening, as the gateway's figure is taken once it serves.
  setTimeout(() => {
    atRest = rss('VmRSS');
    process.stdout.write(`${server.address().port}\n`);
  }, 200);
});
