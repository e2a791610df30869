import { PROGUARD_NAMESPACE } from './proguard-uuid.hasher';
import { Uuid5Hasher, uuid5 } from './uuid5.hasher';

// Known answers produced with Python's standard uuid module (an independent implementation).
describe('uuid5', () => {
  it('when deriving the ProGuard namespace, then it equals uuid5(NAMESPACE_DNS, "guardsquare.com")', () => {
    expect(PROGUARD_NAMESPACE).toBe('4f44f30f-24be-53d0-bab6-f47c7120ad6c');
  });

  it('when the RFC 9562 example name is hashed, then it matches the published value', () => {
    // RFC 9562 appendix A.4: uuid5(NAMESPACE_DNS, "www.example.com").
    expect(uuid5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('when the name arrives in pieces, then the id is the same as hashing it at once', () => {
    const name = Buffer.from('com.example.Foo -> a:\n    int bar -> b\n'.repeat(100));
    const pieces = new Uuid5Hasher(PROGUARD_NAMESPACE);
    for (let at = 0; at < name.length; at += 13) pieces.update(name.subarray(at, at + 13));

    expect(pieces.digest()).toBe(uuid5(PROGUARD_NAMESPACE, name));
  });
});
