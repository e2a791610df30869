import { Status } from 'nice-grpc-common';
import { AlreadyExists, InvalidArgument, NotFound, domainErrorFrom, grpcStatusOf, httpStatusOf } from './index';

describe('error mapping', () => {
  it('when a domain error maps to HTTP, then the contract statuses are used', () => {
    expect(httpStatusOf(new NotFound('x'))).toBe(404);
    expect(httpStatusOf(new AlreadyExists('x'))).toBe(409);
    expect(httpStatusOf(InvalidArgument.field('email', 'is invalid'))).toBe(422);
  });

  it('when an error crosses gRPC with its code and entry, then it is rebuilt exactly', () => {
    const original = InvalidArgument.field('email', 'is invalid');
    const rebuilt = domainErrorFrom(grpcStatusOf(original), original.message, original.code, original.entry);
    expect(rebuilt).toBeInstanceOf(InvalidArgument);
    expect(rebuilt.entry).toEqual({ email: ['is invalid'] });
  });

  it('when a foreign gRPC error has no Hangar code, then its status decides', () => {
    expect(domainErrorFrom(Status.NOT_FOUND, 'gone').code).toBe('not_found');
    expect(domainErrorFrom(Status.UNAVAILABLE, 'down').code).toBe('unavailable');
    expect(domainErrorFrom(Status.DATA_LOSS, 'weird').code).toBe('internal');
  });
});
