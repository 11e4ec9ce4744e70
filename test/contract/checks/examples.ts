// The examples are what sandbox users see: each valid against its schema, the example jobs consistent, the
// max-cut and QUBO answers right, and each use-case record the same everywhere.
import { exampleSites, type Node, operations, deref, schemaValidator } from '../openapi-document.ts';
import { bruteForceMaxCut, cutValue, formatTimestamp } from '../maxcut.ts';
import { bruteForceQubo, quboEnergy, quboFromFile } from '../qubo.ts';
import { behaviour, type Check, exampleValue, schema, sixNodes } from './support.ts';

export const examplesValid: Check = {
  name: 'every example is valid against its schema, and every request and response body has one',
  run(doc) {
    const validate = schemaValidator(doc);
    const violations = exampleSites(doc).flatMap((site) =>
      validate(site.schema, site.value).map((e) => `${site.where}: ${e}`),
    );
    for (const op of operations(doc)) {
      const bodies: [string, Node | undefined][] = [[`${op.label} request`, deref(doc, op.operation.requestBody)]];
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {}))
        bodies.push([`${op.label} ${status}`, deref(doc, raw)]);
      for (const [where, holder] of bodies) {
        for (const [type, media] of Object.entries<Node>(holder?.content ?? {})) {
          if (!media.example && !Object.keys(media.examples ?? {}).length)
            violations.push(`${where} ${type}: no example`);
        }
      }
    }
    return violations;
  },
};

/** Every job object found in the example values, with where it was found. */
function exampleJobs(doc: Node): [string, Node][] {
  const found: [string, Node][] = [];
  const visit = (where: string, value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (typeof node.status === 'string' && node.executions && 'started_at' in node) found.push([where, node]);
    for (const [key, child] of Object.entries(node)) visit(`${where}/${key}`, child);
  };
  for (const [name, example] of Object.entries<Node>(doc.components?.examples ?? {})) visit(name, example.value);
  return found;
}

const terminalJob = ['FINISHED', 'ERROR', 'CANCELLED'];
const terminalExecution = ['SUCCESS', 'ERROR', 'CANCELLED'];

export const jobExamples: Check = {
  name: 'example jobs are consistent: timestamps, end_at, summary counts, output only on SUCCESS',
  run(doc) {
    const violations: string[] = [];
    const jobs = exampleJobs(doc);
    if (!jobs.some(([, j]) => j.status === 'FINISHED')) violations.push('no FINISHED job example');
    const inlineBytes = Buffer.byteLength(JSON.stringify(sixNodes(doc)));
    for (const [where, job] of jobs) {
      const terminal = terminalJob.includes(job.status);
      if ((job.end_at === '') === terminal)
        violations.push(`${where}: end_at must be "" exactly while the job has not ended`);
      if (job.started_at !== formatTimestamp(job.timestamps?.submitted))
        violations.push(`${where}: started_at must be timestamps.submitted`);
      if (terminal && job.end_at !== formatTimestamp(job.timestamps?.ended))
        violations.push(`${where}: end_at must be timestamps.ended`);
      if (job.input?.mode === 'inline' && job.input.bytes !== inlineBytes)
        violations.push(`${where}: inline input is ${inlineBytes} bytes`);
      const list = Object.values<Node>(job.executions);
      const count = (...s: string[]) => list.filter((e) => s.includes(e.status)).length;
      const expected = {
        total: list.length,
        pending: count('PENDING', 'PREPARING'),
        running: count('RUNNING'),
        succeeded: count('SUCCESS'),
        failed: count('ERROR'),
        cancelled: count('CANCELLED'),
      };
      if (JSON.stringify(job.summary) !== JSON.stringify(expected))
        violations.push(`${where}: summary must be ${JSON.stringify(expected)}`);
      if ((job.status === 'ERROR') !== 'error' in job)
        violations.push(`${where}: error must be present exactly when the job is ERROR`);
      for (const [solver, e] of Object.entries<Node>(job.executions)) {
        const at = `${where}/executions/${solver}`;
        if ((e.end_at === '') === terminalExecution.includes(e.status))
          violations.push(`${at}: end_at must be "" exactly while it runs`);
        if ((e.started_at === '') !== (e.timestamps?.running === null))
          violations.push(`${at}: started_at must be "" exactly until it runs`);
        if ('data' in e && e.status !== 'SUCCESS') violations.push(`${at}: data only on SUCCESS`);
        if ('error' in e !== (e.status === 'ERROR')) violations.push(`${at}: error exactly on ERROR`);
      }
    }
    return violations;
  },
};

export const maxcutExamples: Check = {
  name: 'max-cut examples are correct: the 6-node example has maximum cut 53 and every cut matches its partition',
  run(doc) {
    const violations: string[] = [];
    const input = sixNodes(doc);
    const best = bruteForceMaxCut(input.adj_matrix);
    if (best !== 53) violations.push(`the 6-node example's maximum cut must be 53, is ${best}`);
    const outputs: [string, Node][] = [];
    const visit = (where: string, value: unknown) => {
      if (!value || typeof value !== 'object') return;
      const node = value as Node;
      if (Array.isArray(node.partition) && 'cut_value' in node) outputs.push([where, node]);
      for (const [key, child] of Object.entries(node)) visit(`${where}/${key}`, child);
    };
    for (const [name, example] of Object.entries<Node>(doc.components?.examples ?? {})) visit(name, example.value);
    if (outputs.length === 0) violations.push('no max-cut output example');
    for (const [where, output] of outputs) {
      if (output.partition.length !== input.num_nodes)
        violations.push(`${where}: partition must have one entry per node`);
      const cut = cutValue(input.adj_matrix, output.partition);
      if (cut !== output.cut_value)
        violations.push(`${where}: cut_value ${output.cut_value} but the partition cuts ${cut}`);
      if (output.optimal && output.cut_value !== best)
        violations.push(`${where}: claims optimal but the maximum is ${best}`);
    }
    return violations;
  },
};

export const useCaseExamples: Check = {
  name: 'the use-case record is the same everywhere and its example input is valid',
  run(doc) {
    const b = behaviour(doc);
    const record = exampleValue(doc, 'MaxCutUseCase');
    if (JSON.stringify(exampleValue(doc, 'UseCaseList')?.problem?.maxcut) !== JSON.stringify(record)) {
      b.violations.push('GET /problem and GET /problem/maxcut must show the same maxcut record');
    }
    b.accepts("the record's example_input against MaxCutInput", schema('MaxCutInput'), record?.example_input);
    b.accepts("the record's example_input against its own input_schema", record?.input_schema, record?.example_input);
    return b.violations;
  },
};

/** Every value of the examples (components and inline ones) that `is` picks, with where it was found. */
function exampleValuesWhere(doc: Node, is: (node: Node) => boolean): [string, Node][] {
  const found: [string, Node][] = [];
  const visit = (where: string, value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (is(node)) found.push([where, node]);
    for (const [key, child] of Object.entries(node)) visit(`${where}/${key}`, child);
  };
  for (const [name, example] of Object.entries<Node>(doc.components?.examples ?? {})) visit(name, example.value);
  for (const op of operations(doc)) visit(op.label, op.operation);
  return found;
}

export const quboExamples: Check = {
  name: 'QUBO examples are correct: the 4-variable example has minimum energy -11 at (1, 0, 0, 1), its .qubo file and use-case record say the same, and every energy is xᵀQx of its assignment',
  run(doc) {
    const b = behaviour(doc);
    const violations = b.violations;
    const input = exampleValue(doc, 'QuboInput');
    const q: number[][] = input?.q_matrix ?? [];
    const best = bruteForceQubo(q);
    if (best.energy !== -11) violations.push(`the 4-variable example's minimum energy must be -11, is ${best.energy}`);
    if (quboEnergy(q, [1, 0, 0, 1]) !== best.energy)
      violations.push(`(1, 0, 0, 1) must reach the minimum ${best.energy}, has ${quboEnergy(q, [1, 0, 0, 1])}`);
    b.accepts('the QuboInput example against QuboInput', schema('QuboInput'), input);

    const record = exampleValue(doc, 'QuboUseCase');
    if (JSON.stringify(record?.example_input) !== JSON.stringify(input))
      violations.push("the QUBO use case's example_input must be the QuboInput example");
    if (JSON.stringify(exampleValue(doc, 'UseCaseList')?.problem?.qubo) !== JSON.stringify(record))
      violations.push('GET /problem and GET /problem/qubo must show the same qubo record');
    b.accepts("the QUBO record's example_input against its own input_schema", record?.input_schema, input);

    // The upload example's .qubo text is the same QUBO (the qbsolv form of the inline example).
    const uploads = exampleValuesWhere(doc, (n) => n.problem_id === 'qubo' && typeof n.file === 'string');
    if (uploads.length === 0) violations.push('no .qubo upload example');
    for (const [where, upload] of uploads) {
      try {
        if (JSON.stringify(quboFromFile(upload.file)) !== JSON.stringify(input))
          violations.push(`${where}: the .qubo file must describe the QuboInput example`);
      } catch (error) {
        violations.push(`${where}: ${(error as Error).message}`);
      }
    }

    // Any QUBO answer among the examples is an answer to the 4-variable example.
    for (const [where, output] of exampleValuesWhere(doc, (n) => Array.isArray(n.assignment) && 'energy' in n)) {
      if (output.assignment.length !== input.num_variables)
        violations.push(`${where}: assignment must have one entry per variable`);
      const energy = quboEnergy(q, output.assignment);
      if (energy !== output.energy)
        violations.push(`${where}: energy ${output.energy} but the assignment's xᵀQx is ${energy}`);
      if (output.optimal && output.energy !== best.energy)
        violations.push(`${where}: claims optimal but the minimum is ${best.energy}`);
    }
    return violations;
  },
};
