import type { Request, Response } from 'express';
import { InvalidArgument } from '@hangar/errors';
import { parsePage, setPageHeaders } from './pagination';

const req = (query: Record<string, unknown>, originalUrl = '/api/users') => ({ query, originalUrl }) as unknown as Request;

function headers() {
  const set: Record<string, string> = {};
  return { set, res: { setHeader: (k: string, v: string) => (set[k] = v) } as unknown as Response };
}

describe('parsePage', () => {
  it('when nothing is given, then page 1 of 25', () => {
    expect(parsePage(req({}))).toEqual({ page: 1, perPage: 25 });
  });

  it.each([['0'], ['-1'], ['1.5'], ['abc']])('when page is %s, then 422 naming page', (page) => {
    expect(() => parsePage(req({ page }))).toThrow(InvalidArgument);
  });

  it('when per_page is 100 it is accepted; 101 or repeated is refused', () => {
    expect(parsePage(req({ per_page: '100' })).perPage).toBe(100);
    expect(() => parsePage(req({ per_page: '101' }))).toThrow(InvalidArgument);
    expect(() => parsePage(req({ per_page: ['1', '2'] }))).toThrow(InvalidArgument);
  });
});

describe('setPageHeaders', () => {
  it('when on a middle page, then Link has first, prev, next and last, without the token', () => {
    const { set, res } = headers();
    setPageHeaders(req({}, '/api/users?token=secret&page=2&per_page=10'), res, { page: 2, perPage: 10 }, 35, 'https://h.example');
    expect(set['X-Total-Count']).toBe('35');
    expect(set.Link).toBe(
      [
        '<https://h.example/api/users?page=1&per_page=10>; rel="first"',
        '<https://h.example/api/users?page=1&per_page=10>; rel="prev"',
        '<https://h.example/api/users?page=3&per_page=10>; rel="next"',
        '<https://h.example/api/users?page=4&per_page=10>; rel="last"',
      ].join(', '),
    );
  });

  it('when the list is empty, then last is page 1 and there is no next', () => {
    const { set, res } = headers();
    setPageHeaders(req({}), res, { page: 1, perPage: 25 }, 0, 'http://x');
    expect(set.Link).not.toContain('next');
    expect(set.Link).toContain('page=1&per_page=25>; rel="last"');
  });
});
