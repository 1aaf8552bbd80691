import { z } from 'zod'
import type { Urls } from '../config/index.js'
import { BadgeParams, EmbedParams, SearchParams, SinceParams } from '../domain/index.js'

type Json = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: Json, type = 'application/json') => ({ content: { [type]: { schema } } })

/** Every response schema registered with an id in the domain, as OpenAPI components. */
function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`
  }) as { schemas: Record<string, Json> }
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...s }]) => [id, s]))
}

/** Query parameters straight from a domain schema, so documentation and validation cannot drift apart. */
function queryParameters(schema: z.ZodType): Json[] {
  const s = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as { properties: Record<string, Json> }
  return Object.entries(s.properties).map(([name, { description, ...prop }]) => ({ name, in: 'query', required: false, description, schema: prop }))
}

const conditional = ['IfNoneMatch', 'IfModifiedSince', 'IfMatch', 'IfUnmodifiedSince'].map((name) => ({ $ref: `#/components/parameters/${name}` }))

function ok(description: string, content: Json, topic = false): Json {
  const headers: Json = {
    ETag: { $ref: '#/components/headers/ETag' },
    'Last-Modified': { $ref: '#/components/headers/LastModified' },
    'Cache-Control': { $ref: '#/components/headers/CacheControl' }
  }
  if (topic) headers.Link = { $ref: '#/components/headers/Link' }
  return { description, headers, ...content }
}

function readOperation(operationId: string, summary: string, description: string, response: Json, extra: Json = {}): Json {
  const { parameters = [], responses = {}, tags = ['Datasets'] } = extra as { parameters?: Json[]; responses?: Json; tags?: string[] }
  return {
    get: {
      operationId,
      summary,
      description,
      tags,
      parameters: [...parameters, ...conditional],
      responses: { '200': response, '304': { $ref: '#/components/responses/NotModified' }, '412': { $ref: '#/components/responses/PreconditionFailed' }, ...responses }
    }
  }
}

export function buildOpenApi(urls: Urls): Json {
  const badRequest = { '400': { $ref: '#/components/responses/BadRequest' } }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviews Service',
      version: '1.0.0',
      summary: 'Verified customer reviews of one business, as open data.',
      description:
        'Read-only. Every GET answers HEAD, supports conditional requests as RFC 9110 section 13.2.2 orders them (If-Match, If-Unmodified-Since, If-None-Match, which wins over If-Modified-Since; Cache-Control or Pragma in the request do not change the answer), gzip and brotli, and CORS from any origin. Errors are JSON objects with `error` and `message`; invalid parameters add an `issues` array.',
      license: { name: 'MIT', identifier: 'MIT' }
    },
    servers: [{ url: urls.base }],
    // Deliberately public: no operation needs credentials.
    security: [],
    tags: [
      { name: 'Datasets', description: 'Whole documents and feeds; the three topics of the WebSub hub.' },
      { name: 'Reviews', description: 'Queries over the reviews.' },
      { name: 'MCP', description: 'Model Context Protocol (2025-06-18) over streamable HTTP, for AI assistants.' },
      { name: 'WebSub', description: 'A WebSub hub that pushes the new content of each topic to HTTPS subscribers.' },
      { name: 'Website', description: "For the business's own website: a rating badge and an embeddable widget. Not WebSub topics: they change with /reviews.json, which is one." }
    ],
    paths: {
      '/reviews.json': readOperation('getReviews', 'The full reviews dataset', 'Business, aggregate rating and every verified review, newest first.', ok('The dataset.', json(ref('ReviewsDocument')), true)),
      '/insights.json': readOperation(
        'getInsights',
        'Insights computed from the reviews',
        'Aspect-based sentiment, entities (staff, services, areas), topics, monthly trend, FAQ, summary and pull quote, computed locally and deterministically by the service (model reviews-service-absa/1). Every FAQ answer and summary claim cites review ids.',
        ok('The insights.', json(ref('InsightsDocument')))
      ),
      '/api/feed.json': readOperation('getFeed', 'JSON Feed of the newest reviews', 'JSON Feed 1.1 of the 50 newest reviews.', ok('The feed.', json(ref('JsonFeed'), 'application/feed+json'), true)),
      '/feed.xml': readOperation('getAtomFeed', 'Atom feed of the newest reviews', 'Atom (RFC 4287) feed of the 50 newest reviews.', ok('The feed.', json({ type: 'string' }, 'application/atom+xml'), true)),
      '/api/reviews/search': readOperation(
        'searchReviews',
        'Search reviews',
        'Filters combine with AND. Results are newest first (date, then id, descending); `offset` pages past 100. Unknown or repeated parameters, non-integers where integers are due, out-of-range values, impossible dates and since > until give 400. A technician or service that names nothing known gives 200 with no reviews.',
        ok('A page of matching reviews.', json(ref('SearchResult'))),
        { parameters: queryParameters(SearchParams), responses: badRequest, tags: ['Reviews'] }
      ),
      '/api/reviews/since/{date}': readOperation(
        'getReviewsSince',
        'Reviews since a day',
        'Reviews dated on or after `date`, newest first. A future date gives an empty list.',
        ok('The reviews.', json(ref('SinceResult'))),
        { parameters: [pathParameter(SinceParams, 'date')], responses: badRequest, tags: ['Reviews'] }
      ),
      ...websitePaths(badRequest),
      '/mcp': mcpPath(),
      ...hubPaths(),
      '/reviews/{id}': readOperation(
        'getReview',
        'One review',
        "A single published review by id. This is the review's permalink and feed item URL: a client that ranks text/html above application/json in Accept (a browser) gets the review's page instead (Vary: Accept).",
        ok('The review.', { content: { 'application/json': { schema: ref('Review') }, 'text/html': { schema: { type: 'string' } } } }),
        {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '404': { $ref: '#/components/responses/NotFound' } },
          tags: ['Reviews']
        }
      )
    },
    components: {
      schemas: componentSchemas(),
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'ETags the client holds, or `*`; a match (weak comparison: `W/"x"` matches `"x"`) gives 304. Takes precedence over If-Modified-Since.',
          schema: { type: 'string' }
        },
        IfModifiedSince: { name: 'If-Modified-Since', in: 'header', required: false, description: 'HTTP-date; 304 when the data has not changed since. Ignored if it is not an HTTP-date.', schema: { type: 'string' } },
        IfMatch: { name: 'If-Match', in: 'header', required: false, description: 'ETags, or `*`; 412 unless one is the current ETag (strong comparison).', schema: { type: 'string' } },
        IfUnmodifiedSince: {
          name: 'If-Unmodified-Since',
          in: 'header',
          required: false,
          description: 'HTTP-date; 412 when the data has changed since. Ignored with If-Match, or if it is not an HTTP-date.',
          schema: { type: 'string' }
        },
        McpSessionId: { name: 'Mcp-Session-Id', in: 'header', required: false, description: 'The session id from the initialize response; required on every later request.', schema: { type: 'string' } },
        McpProtocolVersion: { name: 'MCP-Protocol-Version', in: 'header', required: false, description: 'The negotiated protocol version; an unsupported one is 400, a missing one is tolerated.', schema: { type: 'string' } }
      },
      headers: {
        ETag: { description: 'Strong validator of this representation.', schema: { type: 'string' } },
        LastModified: { description: 'When the published data last changed.', schema: { type: 'string' } },
        CacheControl: { description: 'public, max-age=60', schema: { type: 'string' } },
        Link: { description: 'WebSub discovery: `<hub>; rel="hub", <topic>; rel="self"`.', schema: { type: 'string' } }
      },
      responses: {
        NotModified: { description: 'The representation the client holds is current; no body.' },
        PreconditionFailed: { description: 'If-Match or If-Unmodified-Since does not hold for the current representation.', ...json(ref('Error')) },
        BadRequest: { description: 'Invalid parameters; `issues` lists every problem.', ...json(ref('ValidationError')) },
        McpRefused: { description: 'Refused at the HTTP level; the body is a JSON-RPC error with a null id.', ...json(ref('JsonRpcError')) },
        NotFound: { description: 'No such resource.', ...json(ref('Error')) }
      }
    }
  }
}

/** The badge and the widget: made from the data like every page, with their own parameters. */
function websitePaths(badRequest: Record<string, Json>): Json {
  const text = (type: string) => ({ content: { [type]: { schema: { type: 'string' } } } })
  const options = (schema: z.ZodType, responses = badRequest) => ({ parameters: queryParameters(schema), responses, tags: ['Website'] })
  // Shown inside the frame a snippet made, so a browser gets the problems as a page.
  const embedBadRequest = {
    '400': { description: 'Invalid parameters; `issues` lists every problem (a page listing them for browsers).', content: { ...json(ref('ValidationError')).content, ...text('text/html').content } }
  }
  return {
    '/badge.svg': readOperation(
      'getBadge',
      'Rating badge',
      'An SVG image (a few hundred bytes) of the mean rating, five stars filled to it and the number of reviews, with its own background, an accessible title and description. Put it in an <img> on any site. Unknown or repeated parameters give 400.',
      ok('The badge.', text('image/svg+xml')),
      options(BadgeParams)
    ),
    '/embed': readOperation(
      'getEmbed',
      'Embeddable reviews widget',
      'A small HTML page made for an <iframe>: the rating and the newest reviews, each linked to its permalink in a new tab. No script, nothing loaded from elsewhere; Content-Security-Policy frame-ancestors allows any site, or those of EMBED_ALLOWED_ORIGINS when set. Unknown or repeated parameters and out-of-range values give 400 (a page for browsers, JSON otherwise).',
      ok('The widget.', text('text/html')),
      options(EmbedParams, embedBadRequest)
    )
  }
}

/** The WebSub hub (W3C WebSub) and its counters. */
function hubPaths(): Json {
  const plain = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } })
  return {
    '/api/websub/hub': {
      post: {
        operationId: 'websubHub',
        summary: 'Subscribe to or unsubscribe from a topic',
        description:
          'Topics: /feed.xml, /api/feed.json and /reviews.json under the server URL. A valid request is answered 202 at once; the hub then verifies intent with a GET to the HTTPS callback (hub.mode, hub.topic, hub.challenge, hub.lease_seconds), which must answer 2xx with exactly the challenge. On every change each active subscriber gets one POST with the full current content, the topic\'s Content-Type, `Link` rel=hub and rel=self, and `X-Hub-Signature: sha256=<hex>` when it gave a secret. Leases default to 10 days, clamped to [1 hour, 30 days]. 3 consecutive failed deliveries (retried after 1 and 5 minutes) remove the subscription and send hub.mode=denied; 410 removes it at once.',
        tags: ['WebSub'],
        security: [],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('HubRequest') } } },
        responses: {
          '202': plain('Accepted; verification of intent follows.'),
          '400': plain('Invalid fields, unknown topic, callback not HTTPS or on a non-public address, secret of 200 bytes or more; one problem per line.'),
          '403': plain('The callback host already has the most subscriptions this hub allows.'),
          '413': plain('The request is too large.'),
          '415': plain('Not application/x-www-form-urlencoded.'),
          '429': plain('Too many subscription requests from this client; try again later.')
        }
      }
    },
    '/api/websub/stats': {
      get: {
        operationId: 'getHubStats',
        summary: 'Hub counters',
        description: 'Active subscriptions, verifications, deliveries, failures, removals and the last delivery per topic, since the process started.',
        tags: ['WebSub'],
        responses: { '200': { description: 'The counters (cached for up to a second).', ...json(ref('HubStats')) } }
      }
    }
  }
}

/** The MCP endpoint: one JSON-RPC message per POST; GET opens the notification stream; DELETE ends the session. */
function mcpPath(): Json {
  const refused = (...statuses: number[]) => Object.fromEntries(statuses.map((st) => [String(st), { $ref: '#/components/responses/McpRefused' }]))
  const parameters = [{ $ref: '#/components/parameters/McpSessionId' }, { $ref: '#/components/parameters/McpProtocolVersion' }]
  const sse = (description: string) => ({ description, content: { 'text/event-stream': { schema: { type: 'string' } } } })
  return {
    post: {
      operationId: 'mcp',
      summary: 'Send one MCP message',
      description:
        'Streamable HTTP transport of the Model Context Protocol, protocol 2025-06-18 (older versions the SDK negotiates are accepted). Start with `initialize` (no session id); the response carries `Mcp-Session-Id`, which every later request sends. Clients must accept `application/json, text/event-stream`. One message per request (no batches). Tools: get_business, search_reviews, get_reviews_since, get_review, get_aspect_sentiment, get_technician, get_service, get_faq, get_insights_summary. A browser `Origin` must be allowed.',
      tags: ['MCP'],
      parameters,
      requestBody: { required: true, ...json(ref('JsonRpcMessage')) },
      responses: {
        '200': {
          description: 'The response to a request: JSON, or an SSE stream when the server sends related messages first.',
          headers: { 'Mcp-Session-Id': { description: 'Set on the initialize response.', schema: { type: 'string' } } },
          content: { 'application/json': { schema: { oneOf: [ref('JsonRpcResult'), ref('JsonRpcError')] } }, 'text/event-stream': { schema: { type: 'string' } } }
        },
        '202': { description: 'A notification or response was accepted; no body.' },
        ...refused(400, 403, 404, 406, 413, 415, 503)
      }
    },
    get: {
      operationId: 'mcpStream',
      summary: 'Open the notification stream of a session',
      description: 'Server-sent events that answer no request: `notifications/resources/updated` for subscribed resources and log messages. One stream per session.',
      tags: ['MCP'],
      parameters,
      responses: { '200': sse('The stream; it stays open.'), ...refused(400, 403, 404, 406, 409) }
    },
    delete: {
      operationId: 'mcpEndSession',
      summary: 'End a session',
      description: 'Ends the session; its id is 404 afterwards. Idle sessions also expire.',
      tags: ['MCP'],
      parameters,
      responses: { '204': { description: 'The session ended.' }, ...refused(400, 403, 404) }
    }
  }
}

function pathParameter(schema: z.ZodType, name: string): Json {
  const s = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as { properties: Record<string, Json> }
  const { description, ...prop } = s.properties[name]!
  return { name, in: 'path', required: true, description, schema: prop }
}
