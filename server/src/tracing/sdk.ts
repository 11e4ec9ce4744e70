// Turning tracing on: when the OTEL variables ask for it (settings.ts), the OpenTelemetry SDK is loaded (a dynamic
// import, so a server without them never loads it) and registered for the process: a tracer provider with this
// process's resource, a batch processor per exporter, the W3C trace-context propagator, async-context propagation.
// The SDK reads its own variables: the OTLP endpoint, headers, timeout and compression (the exporter), the sampler
// (OTEL_TRACES_SAMPLER, _ARG), batching (OTEL_BSP_*), span limits, OTEL_RESOURCE_ATTRIBUTES.
import { hostname } from 'node:os';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { serverVersion } from '../core/version.ts';
import { type TraceExporter, tracingSettings } from './settings.ts';

export interface Tracing {
  /**
   * Ends tracing for this user of it: the last one flushes the spans not yet sent and unregisters the SDK. Never
   * rejects (a failure to send is logged).
   */
  shutdown(): Promise<void>;
}

async function exporterFor(exporter: TraceExporter) {
  if (exporter.kind === 'console') return new (await import('@opentelemetry/sdk-trace-node')).ConsoleSpanExporter();
  // Each exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself.
  if (exporter.protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

async function register(settings: NonNullable<ReturnType<typeof tracingSettings>>, logger: Logger) {
  const [{ NodeTracerProvider, BatchSpanProcessor }, { W3CTraceContextPropagator }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  // The SDK's own complaints (an export that failed, a variable it cannot read) go to the server's log.
  const log = logger.child({ component: 'tracing' });
  const warn = (message: string, ...args: unknown[]) => log.warn(args.length ? { details: args } : {}, message);
  const quiet = () => {};
  diag.setLogger({ error: warn, warn, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
  // Ours first, then what the environment says (OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME): the later wins.
  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        'service.name': settings.serviceName,
        'service.version': serverVersion,
        'host.name': hostname(),
        'process.pid': process.pid,
      }),
    )
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const exporters = await Promise.all(settings.exporters.map(exporterFor));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: exporters.map((exporter) => new BatchSpanProcessor(exporter)),
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return { provider, log };
}

/** The SDK as registered for this process, shared by every server and worker started in it. */
let registered: { users: number; provider: Promise<Awaited<ReturnType<typeof register>>> } | undefined;

/**
 * Starts tracing when the environment asks for it (an invalid OTEL variable is a ConfigError naming it); undefined
 * when it does not. The first start in a process registers the SDK; later ones share it (its service name is the
 * first's).
 */
export async function startTracing(role: 'api' | 'worker', logger: Logger): Promise<Tracing | undefined> {
  // The process's environment, as the SDK reads it itself.
  const settings = tracingSettings(process.env, role);
  if (!settings) return undefined;
  const shared = (registered ??= { users: 0, provider: register(settings, logger) });
  shared.users++;
  try {
    await shared.provider;
  } catch (error) {
    if (--shared.users === 0 && registered === shared) registered = undefined;
    throw error;
  }
  let done = false;
  return {
    async shutdown() {
      if (done) return;
      done = true;
      if (--shared.users > 0) return;
      if (registered === shared) registered = undefined;
      const { provider, log } = await shared.provider;
      try {
        await provider.shutdown();
      } catch (err) {
        log.warn({ err }, 'the last spans could not be sent');
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}
