import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { javaLines } from './java-text';
import { retrace } from './retrace';
import { fixturesDir } from '@hangar/testing';

/** Debian's libproguard-java: ProGuard's own ReTrace, 6.2.2 (libs/testing/system-tools.json). */
const RETRACE_JAR = '/usr/share/java/proguard-retrace.jar';
const FIXTURES = fixturesDir();

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-retrace-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

function proguardRetrace(mappingFile: string, trace: string): string {
  const traceFile = path.join(workDir, `trace-${Date.now()}-${Math.random()}.txt`);
  fs.writeFileSync(traceFile, trace);
  return execFileSync('java', ['-jar', RETRACE_JAR, mappingFile, traceFile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function hangarRetrace(mappingFile: string, trace: string): Promise<string> {
  return (await retrace(trace, () => javaLines(fs.createReadStream(mappingFile, { highWaterMark: 4096 }), 1 << 20))).text;
}

function mappingOfFixture(zipName: string): string {
  const file = path.join(workDir, `${zipName}.mapping.txt`);
  fs.writeFileSync(file, execFileSync('unzip', ['-p', path.join(FIXTURES, 'proguards', zipName), 'mapping.txt'], { maxBuffer: 64 * 1024 * 1024 }));
  return file;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ObfuscatedClass {
  name: string;
  methods: { name: string; first: number; last: number }[];
}

/** The obfuscated classes and methods a mapping declares, read independently of the code under test. */
function obfuscatedClasses(mapping: string): ObfuscatedClass[] {
  const classes: ObfuscatedClass[] = [];
  for (const line of mapping.split('\n')) {
    const header = /^(\S.*) -> (\S+):$/.exec(line);
    if (header) {
      classes.push({ name: header[2]!, methods: [] });
      continue;
    }
    const method = /^\s+(?:(\d+):(\d+):)?\S+ \S+\(.*\)(?::\d+(?::\d+)?)? -> (\S+)$/.exec(line);
    if (method && classes.length) classes[classes.length - 1]!.methods.push({ name: method[3]!, first: Number(method[1] ?? 0), last: Number(method[2] ?? 0) });
  }
  return classes;
}

/**
 * Traces as crash reporters send them: exception lines, `at` frames with and without line numbers,
 * logcat prefixes, `Caused by:`, `... n more`, frames of classes the mapping does not know.
 */
function generatedTrace(classes: ObfuscatedClass[], seed: number, frames: number): string {
  const next = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const withMethods = classes.filter((c) => c.methods.length > 0);
  const lines: string[] = [`${pick(classes).name}: something went wrong`];
  for (let i = 0; i < frames; i++) {
    const owner = pick(withMethods);
    const method = pick(owner.methods);
    const inRange = method.first > 0 ? method.first + Math.floor(next() * (method.last - method.first + 1)) : 1 + Math.floor(next() * 50);
    const roll = next();
    const location =
      roll < 0.55 ? `SourceFile:${inRange}` : roll < 0.7 ? 'Unknown Source' : roll < 0.8 ? `SourceFile:${inRange + 1000}` : roll < 0.9 ? 'SourceFile' : `:${inRange}`;
    const prefix = pick(['\tat ', '        at ', 'at ', 'E/AndroidRuntime( 4242): \tat ']);
    lines.push(`${prefix}${owner.name}.${method.name}(${location})`);
    if (next() < 0.08) lines.push(`Caused by: ${pick(classes).name}: nested ${i}`);
    if (next() < 0.05) lines.push(`\t... ${i} more`);
    if (next() < 0.05) lines.push('\tat com.example.NotObfuscated.run(NotObfuscated.kt:12)');
    if (next() < 0.03) lines.push(`${pick(classes).name}`);
    if (next() < 0.02) lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

describe('retrace, differentially against ProGuard ReTrace 6.2.2 (Debian libproguard-java)', () => {
  it.each(['full_mapping.zip', 'single_mapping.zip'])('when traces generated from the fixture %s are retraced, then the output is byte for byte ReTrace\'s', async (zipName) => {
    const mappingFile = mappingOfFixture(zipName);
    const classes = obfuscatedClasses(fs.readFileSync(mappingFile, 'utf8'));
    expect(classes.length).toBeGreaterThan(100);
    // One ReTrace run over many traces (each line is retraced on its own; Java starts once).
    const trace = [1, 2, 3, 4, 5, 6].map((seed) => generatedTrace(classes, seed + zipName.length, 120)).join('');
    const expected = proguardRetrace(mappingFile, trace);
    // The trace really exercised the mapping: most frames changed.
    expect(expected).not.toBe(trace);
    expect(expected).toContain('androidx.');
    expect(await hangarRetrace(mappingFile, trace)).toBe(expected);
  });

  it('when the mapping uses overloads, line ranges, R8 inline frames with origin lines, comments and odd lines, then the output is ReTrace\'s', async () => {
    const mappingFile = path.join(workDir, 'edge-mapping.txt');
    fs.writeFileSync(
      mappingFile,
      [
        '# compiler: R8',
        '# {"id":"com.android.tools.r8.mapping","version":"1.0"}',
        'com.example.app.MainActivity -> a.a:',
        '    java.lang.String title -> a',
        '    1:3:void onCreate(android.os.Bundle):20:22 -> a',
        '    4:4:void com.example.app.Helper.inlined():100:100 -> a',
        '    4:4:void onCreate(android.os.Bundle):23 -> a',
        '    5:9:int compute(int,java.lang.String[]):40:44 -> a',
        '    10:10:void overloaded(int) -> b',
        '    10:10:void overloaded(long) -> b',
        '    void noLines() -> c',
        '    # a comment inside a class',
        '    11:12:void shifted():70:80 -> d',
        '\tcom.example.app.MainActivity$Inner -> a.b:',
        '    1:1:void run():5:5 -> run',
        'not a class line:',
        '    1:1:void orphan() -> a',
        'com.example.app.Other -> a.c:\r',
        '    1:1:void <init>():7:7 -> <init>\r',
        'com.example.app.Twice -> a.d:',
        '    1:1:void first() -> a',
        'com.example.app.Twice -> a.e:',
        '    1:1:void second() -> a',
        '',
      ].join('\n'),
    );
    const trace = [
      'java.lang.RuntimeException: a.a',
      '\tat a.a.a(SourceFile:2)',
      '\tat a.a.a(SourceFile:4)',
      '\tat a.a.a(SourceFile:7)',
      '\tat a.a.a(Unknown Source)',
      '\tat a.a.b(SourceFile:10)',
      '\tat a.a.c(SourceFile:3)',
      '\tat a.a.d(SourceFile:12)',
      '\tat a.b.run(SourceFile:1)',
      '\tat a.c.<init>(SourceFile:1)',
      '\tat a.d.a(SourceFile:1)',
      '\tat a.e.a(SourceFile:1)',
      '\tat not.a.a(SourceFile:1)',
      'Caused by: a.b: inner',
      '\t... 3 more',
      'a.a',
      '',
      'free text with \u00e9 and \u2603',
    ].join('\r\n');
    const expected = proguardRetrace(mappingFile, trace);
    expect(expected).toContain('com.example.app.Helper.inlined(Helper.java:100)');
    expect(await hangarRetrace(mappingFile, trace)).toBe(expected);
  });

  it('when a frame\'s line number is beyond a Java int, then that line is left as it is (ReTrace 6.2.2 stops with NumberFormatException there)', async () => {
    const mappingFile = path.join(workDir, 'tiny-mapping.txt');
    fs.writeFileSync(mappingFile, 'com.example.Main -> a.a:\n    1:1:void run():3:3 -> a\n');
    const trace = '\tat a.a.a(SourceFile:99999999999)\n\tat a.a.a(SourceFile:1)\n';
    expect(() => proguardRetrace(mappingFile, trace)).toThrow(/NumberFormatException/);
    expect(await hangarRetrace(mappingFile, trace)).toBe('\tat a.a.a(SourceFile:99999999999)\n\tat com.example.Main.run(Main.java:3)\n');
  });
});
