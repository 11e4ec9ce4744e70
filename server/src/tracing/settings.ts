// Whether this process traces, read from the standard OpenTelemetry variables as the SDK reads them: there is no
// JES_ setting. On when OTEL_TRACES_EXPORTER names an exporter (otlp, console), or, unset, when an OTLP endpoint is
// given; OTEL_SDK_DISABLED=true wins. The SDK reads the rest itself (endpoint, headers, timeout, sampler, batching).
import { ConfigError } from '../config/config.ts';

export type TraceExporter = { kind: 'otlp'; protocol: 'http/protobuf' | 'http/json' } | { kind: 'console' };

export interface TracingSettings {
  /** Where spans go: one exporter per name of OTEL_TRACES_EXPORTER. */
  exporters: TraceExporter[];
  /** OTEL_SERVICE_NAME, or this process's role: `jes-server` (API) or `jes-worker` (worker). */
  serviceName: string;
}

/** An empty variable counts as unset, as the specification says. */
const read = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || undefined;

const protocols = ['http/protobuf', 'http/json'] as const;

function otlp(env: NodeJS.ProcessEnv): TraceExporter {
  const name = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = read(env, name) ?? 'http/protobuf';
  if (!(protocols as readonly string[]).includes(protocol))
    throw new ConfigError(
      `${name}: ${protocol} is not supported by jes-server; use http/protobuf (the default) or http/json`,
    );
  return { kind: 'otlp', protocol: protocol as (typeof protocols)[number] };
}

/** The tracing this environment asks for, or undefined when it asks for none (the default). */
export function tracingSettings(env: NodeJS.ProcessEnv, role: 'api' | 'worker'): TracingSettings | undefined {
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const names = read(env, 'OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  let exporters: TraceExporter[];
  if (names) {
    const unknown = names.find((name) => !['otlp', 'console', 'none'].includes(name));
    if (unknown)
      throw new ConfigError(
        `OTEL_TRACES_EXPORTER: ${unknown} is not supported by jes-server; use otlp, console or none`,
      );
    if (names.includes('none')) return undefined;
    exporters = [...new Set(names)].map((name) => (name === 'console' ? { kind: 'console' } : otlp(env)));
  } else if (read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') || read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')) {
    exporters = [otlp(env)];
  } else return undefined;
  return { exporters, serviceName: read(env, 'OTEL_SERVICE_NAME') ?? (role === 'api' ? 'jes-server' : 'jes-worker') };
}
