import { javaLines } from './java-text';
import { retrace } from './retrace';

/** A mapping of `classes` classes, made line by line and never held: what a large app's R8 writes. */
async function* largeMapping(classes: number, onLine: () => void): AsyncGenerator<Buffer> {
  for (let i = 0; i < classes; i++) {
    let block = `com.example.generated.package${i % 97}.Class${i} -> a.b${i}:\n    java.lang.String field${i} -> a\n`;
    for (let m = 0; m < 20; m++) block += `    ${m * 10 + 1}:${m * 10 + 9}:void method${m}(int,java.lang.String):${m * 100 + 1}:${m * 100 + 9} -> m${m}\n`;
    onLine();
    yield Buffer.from(block);
  }
}

describe('retrace', () => {
  it('when the mapping is far larger than memory should hold, then it is streamed and only the classes the trace names are kept', async () => {
    const classes = 60_000; // about 52 MB of mapping text (100 MB as JavaScript strings), read twice
    let peak = 0;
    let reads = 0;
    const baseline = process.memoryUsage().heapUsed;
    const sample = () => {
      if (++reads % 5000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
    };
    const trace = 'java.lang.RuntimeException: a.b7\n\tat a.b7.m3(SourceFile:35)\n\tat a.b59999.m0(SourceFile:5)\n';
    const result = await retrace(trace, () => javaLines(largeMapping(classes, sample), 1 << 16));
    expect(result.text).toBe(
      [
        'java.lang.RuntimeException: com.example.generated.package7.Class7',
        '\tat com.example.generated.package7.Class7.method3(Class7.java:305)',
        `\tat com.example.generated.package${59999 % 97}.Class59999.method0(Class59999.java:5)`,
        '',
      ].join('\n'),
    );
    expect(reads).toBe(2 * classes);
    // Holding the mapping would keep over 100 MB of strings alive; streaming keeps a few classes,
    // and the rest is garbage the collector takes when it likes (Node 20 peaked near 30 MB above
    // the baseline, Node 24's collector near 60 MB).
    expect(peak).toBeLessThan(90 * 1024 * 1024);
  });

  it('when a mapping line has no end, then reading stops at the limit instead of growing', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 1000; i++) yield Buffer.alloc(64 * 1024, 0x61);
    }
    await expect(retrace('\tat a.a.a(SourceFile:1)\n', () => javaLines(endless(), 1 << 20))).rejects.toThrow('a line is longer than 1048576 characters');
  });

  it('when lines end in \\r, \\r\\n or \\n and a chunk splits a character or a line ending, then lines come out as Java reads them', async () => {
    async function* chunks(): AsyncGenerator<Buffer> {
      const bytes = Buffer.from('a\r\nb\rc\n\u00e9d\r', 'utf8');
      for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
    }
    const lines: string[] = [];
    for await (const line of javaLines(chunks(), 100)) lines.push(line);
    expect(lines).toEqual(['a', 'b', 'c', '\u00e9d']);
  });
});
