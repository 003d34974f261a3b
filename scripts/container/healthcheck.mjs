// The image's HEALTHCHECK (slim images have no curl): exits 0 when the service in this container answers its health
// route with 200, 1 otherwise (down, starting, or its database unreachable).
const port = process.env.PORT || '3000';
fetch(`http://127.0.0.1:${port}/api/v1/actuator/health`, { signal: AbortSignal.timeout(2500) }).then(
  (response) => process.exit(response.status === 200 ? 0 : 1),
  () => process.exit(1),
);
