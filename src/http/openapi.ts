// The service describes itself (CONTRACT §3): one generator over the route schemas,
// split into two OpenAPI 3.1 documents: API 2 with the token endpoints, and API 1.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Core } from '../compose.ts';

type Doc = Record<string, unknown> & { paths?: Record<string, unknown>; info?: Record<string, unknown> };

const isApi2Path = (p: string) => p.startsWith('/api/2/') || p.startsWith('/oauth/') || p.startsWith('/.well-known/');
// The connect jobs' own paths belong with API 1, which starts them.
const isApi1Path = (p: string) => (p.startsWith('/api/') && !p.startsWith('/api/2/')) || p.startsWith('/connect/');

function select(doc: Doc, keep: (p: string) => boolean, info: Record<string, unknown>): Doc {
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([p]) => keep(p)));
  return { ...doc, info: { ...doc.info, ...info }, paths };
}

export const API2_INFO = {
  title: 'Scanbase API 2',
  version: '2.0.0',
  description: 'Reality-capture project service, API 2 (RFC 9457 errors, URN ids) and the OAuth 2 token service.',
};
export const API1_INFO = {
  title: 'Scanbase API 1',
  version: '1.0.0',
  description: 'Reality-capture project service, API 1 ({code, message} errors, API 1 ids) and its reports.',
};

export async function registerOpenApi(app: FastifyInstance, core: Core): Promise<void> {
  const base = core.config.publicUrl;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: API2_INFO,
      servers: [{ url: base }],
      tags: [{ name: 'BETA', description: 'Operations that may change later' }],
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: `${base}/oauth/authorize`,
                tokenUrl: `${base}/oauth/token`,
                refreshUrl: `${base}/oauth/token`,
                scopes: {},
              },
            },
          },
        },
      },
      security: [{ oauth2: [] }],
    },
  });

  let api2: Doc | undefined;
  let api1: Doc | undefined;
  const full = () => app.swagger() as unknown as Doc;

  app.get('/api/2/openapi.json', { schema: { hide: true } }, async () => {
    api2 ??= select(full(), isApi2Path, API2_INFO);
    return api2;
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => {
    api1 ??= select(full(), isApi1Path, API1_INFO);
    return api1;
  });

  await app.register(swaggerUi, {
    routePrefix: '/api/2/docs',
    staticCSP: true,
    transformSpecification: (doc) => select(doc as Doc, isApi2Path, API2_INFO),
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
