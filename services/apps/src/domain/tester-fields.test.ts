import { InvalidArgument } from '@hangar/errors';
import { TESTERS_PER_REQUEST_MAX, parseTesterEmails, validateExpiry, validateSeats, validateTesterEmail } from './tester-fields';

describe('tester addresses as admins paste them', () => {
  it('when a list is separated by commas, semicolons, tabs or new lines, then each address counts once, lowercased', () => {
    expect(parseTesterEmails(['Ada@Example.com, grace@example.com;linus@example.com\tada@example.com\n\nken@example.com'])).toEqual([
      'ada@example.com',
      'grace@example.com',
      'linus@example.com',
      'ken@example.com',
    ]);
  });

  it('when a CSV export is pasted, then its header is skipped and the address is read from whichever column holds it', () => {
    const csv = 'Name,E-mail,Team\r\nAda Lovelace,ada@example.com,Core\r\n"Grace",grace@example.com,QA\r\n';
    expect(parseTesterEmails([csv])).toEqual(['ada@example.com', 'grace@example.com']);
  });

  it('when an address is written with a name, then the address inside the angle brackets is taken', () => {
    expect(parseTesterEmails(['Jane Doe <Jane@Example.com>', '"bob@example.com"', '"Grace Hopper <grace@example.com>",QA'])).toEqual(['jane@example.com', 'bob@example.com', 'grace@example.com']);
  });

  it('when some entries are not addresses, then every problem is named at once', () => {
    let thrown: unknown;
    try {
      parseTesterEmails(['header line\nok@example.com\njane at example\nx@y\nAda,Lovelace']);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InvalidArgument);
    expect((thrown as InvalidArgument).entry).toEqual({
      emails: ["'jane at example' is not an e-mail address", "'x@y' is not an e-mail address", 'line 5 has no e-mail address'],
    });
  });

  it('when nothing or too much is pasted, then it is refused', () => {
    expect(() => parseTesterEmails([' \n '])).toThrow(InvalidArgument);
    const many = Array.from({ length: TESTERS_PER_REQUEST_MAX + 1 }, (_, i) => `t${i}@example.com`).join('\n');
    expect(() => parseTesterEmails([many])).toThrow(`at most ${TESTERS_PER_REQUEST_MAX}`);
  });

  it('when one address is asked for, then exactly one is taken', () => {
    expect(validateTesterEmail(' Jane@Example.com ')).toBe('jane@example.com');
    expect(() => validateTesterEmail('')).toThrow("can't be blank");
    expect(() => validateTesterEmail('a@b.c, d@e.f')).toThrow('is not an e-mail address');
  });

  it('when a join link is limited, then seats are whole numbers and the expiry lies ahead', () => {
    expect(validateSeats(0)).toBe(0);
    expect(() => validateSeats(-1)).toThrow(InvalidArgument);
    expect(() => validateSeats(1.5)).toThrow(InvalidArgument);
    expect(validateExpiry(0)).toBeUndefined();
    expect(validateExpiry(2_000, 1_000)).toEqual(new Date(2_000));
    expect(() => validateExpiry(1_000, 1_000)).toThrow('must be in the future');
  });
});
