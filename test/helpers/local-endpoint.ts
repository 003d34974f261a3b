import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * A local HTTP endpoint on 127.0.0.1 that a test points the service at (a webhook, an SMS gateway). `answers` is consumed
 * one per request by the subclass: a status, or 'hang' (never answer, until the service's timeout); `stop()` ends the
 * hanging ones.
 */
export abstract class LocalEndpoint {
  readonly answers: Array<number | 'hang'> = [];
  protected readonly hanging: ServerResponse[] = [];
  private server?: Server;

  /** The path its URL names. */
  protected abstract readonly path: string;
  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /** Listens on a free port, and answers the endpoint's URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${this.path}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
