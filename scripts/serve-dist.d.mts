import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const ISOLATION_HEADERS: Readonly<Record<string, string>>;
export function distHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => void;
export function createDistServer(dir: string): Server;
export function listen(server: Server, port: number): Promise<number>;
