// The service skeleton: one start (gRPC, MongoDB, events, shutdown by phase) and one process
// entry for every gRPC service. Apart from libs/grpc so that the gateway, which keeps no
// database, loads no MongoDB driver (tests/e2e/gateway-footprint.test.ts).
export * from './start-service';
export * from './run-service';
