import { Type } from '@sinclair/typebox';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { responseContractPlugin, takeContractViolations, type ContractMode } from './response-contract.js';

const Thing = Type.Object({ id: Type.String(), tags: Type.Array(Type.Object({ name: Type.String() })) });

async function appWith(mode: ContractMode): Promise<FastifyInstance> {
  const app = fastify();
  await app.register(responseContractPlugin, { mode });
  const response = { 200: Thing, 404: Type.Object({ message: Type.String() }) };
  app.get('/exact', { schema: { response } }, () => ({ id: 'a', tags: [{ name: 'x' }] }));
  // A field the document does not name: Fastify's serializer would drop it without a word.
  app.get('/extra', { schema: { response } }, () => ({ id: 'a', tags: [{ name: 'x', secret: 's' }] }));
  app.get('/wrong', { schema: { response } }, () => ({ id: 7, tags: [] }));
  // 418: a status the document does not declare (typed as a declared one to get past the compiler).
  app.get('/teapot', { schema: { response } }, (_request, reply) =>
    reply.code(418 as 404).send({ id: 'a', tags: [] }),
  );
  app.get('/text', { schema: { response } }, (_request, reply) => reply.type('text/plain').send('hello'));
  app.get(
    '/pdf',
    { schema: { response: { 200: { content: { 'application/pdf': { schema: {} } } } } } },
    (_r, reply) => reply.type('application/pdf').send(Buffer.from('%PDF-1.7')),
  );
  app.get('/hidden', { schema: { hide: true } }, (_request, reply) =>
    reply.code(418 as 404).send('anything'),
  );
  app.get('/raw', { schema: { response } }, (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(409).end('written by the route itself');
  });
  return app;
}

describe('response contract', () => {
  afterEach(() => takeContractViolations());

  it('passes an answer that is exactly what the document declares', async () => {
    const app = await appWith('enforce');
    const res = await app.inject({ url: '/exact' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a', tags: [{ name: 'x' }] });
    expect((await app.inject({ url: '/pdf' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/hidden' })).statusCode).toBe(418);
    expect(takeContractViolations()).toEqual([]);
  });

  it('catches a field the serializer would have dropped, in a nested object', async () => {
    const app = await appWith('enforce');
    const res = await app.inject({ url: '/extra' });
    expect(res.statusCode).toBe(500);
    expect(res.json<{ message: string }>().message).toMatch(
      /\/tags\/0 must NOT have additional properties 'secret'/,
    );
    expect(takeContractViolations()).toMatchObject([{ method: 'GET', route: '/extra', status: 200 }]);
  });

  it('catches a body of the wrong shape, an undeclared status and a body of another media type', async () => {
    const app = await appWith('enforce');
    expect((await app.inject({ url: '/wrong' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/teapot' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/text' })).statusCode).toBe(500);
    expect(takeContractViolations().map((v) => v.problem)).toEqual([
      '200 body /id must be string',
      'status 418 is not declared',
      '200 answered text/plain, declared JSON',
    ]);
  });

  it('checks the status of a reply the route writes itself', async () => {
    const app = await appWith('enforce');
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/raw`);
      expect(res.status).toBe(409);
      await res.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(takeContractViolations()).toMatchObject([
        { route: '/raw', problem: 'status 409 is not declared' },
      ]);
    } finally {
      await app.close();
    }
  });

  it('only logs with `log`, and does nothing with `off`', async () => {
    const logged = await appWith('log');
    const res = await logged.inject({ url: '/extra' });
    expect(res.statusCode).toBe(200);
    // What the client gets is what the serializer made of it: the undeclared field is gone.
    expect(res.json()).toEqual({ id: 'a', tags: [{ name: 'x' }] });
    expect(takeContractViolations()).toHaveLength(1);
    const off = await appWith('off');
    expect((await off.inject({ url: '/extra' })).statusCode).toBe(200);
    expect(takeContractViolations()).toEqual([]);
  });
});
