/**
 * Scratch schema of the prototype fixes (database `bench_proto`, inside the
 * bench's own data directory; packages/store is untouched): a copy of one
 * project's spans and a run rollup that a materialized view maintains on
 * every insert into that copy, so the rollup is built by the same insert path
 * a real store would use. The copy also has a finer index granularity, for
 * the trace-lookup prototype.
 */
export const PROTO_DB = 'bench_proto';

/** Index granularity of the scratch copy of spans (the store's is 8192): fewer rows read around one trace. */
export const PROTO_GRANULARITY = 2048;

/** The scratch copy: the store's own spans DDL (first migration), in the scratch database, with a finer index granularity. */
export function protoSpansDdl(storeSpansDdl: string): string {
  const ddl = storeSpansDdl.replace('CREATE TABLE IF NOT EXISTS spans', `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.spans`);
  const fine = ddl.replace('index_granularity = 8192', `index_granularity = ${PROTO_GRANULARITY}`);
  if (fine === ddl || !ddl.includes(`${PROTO_DB}.spans`)) throw new Error('the spans migration changed shape: update protoSpansDdl');
  return fine;
}

/** One row per (run, insert block) until merges combine them; queries merge with GROUP BY run_id. */
export const RUN_ROLLUP_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_rollup
(
    project_id LowCardinality(String),
    run_id String,
    run_start SimpleAggregateFunction(min, DateTime64(9, 'UTC')),
    run_end SimpleAggregateFunction(max, DateTime64(9, 'UTC')),
    any_service SimpleAggregateFunction(any, String),
    -- the root by (rank, latest start): (rank, name, service, status, outcome, error type, duration, start, trace id); rank 0 = no root yet
    root AggregateFunction(argMax, Tuple(UInt8, String, String, UInt8, String, String, Int64, DateTime64(9, 'UTC'), String), Tuple(UInt8, Int64)),
    span_count SimpleAggregateFunction(sum, UInt64),
    steps SimpleAggregateFunction(sum, UInt64),
    explicit_cost SimpleAggregateFunction(sum, Float64),
    -- priced at query time: model → (uncached input, cached input, output tokens, spans) of usage-counted spans without an explicit cost
    usage SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64), Array(UInt64), Array(UInt64), Array(UInt64))),
    in_tok SimpleAggregateFunction(sum, UInt64),
    out_tok SimpleAggregateFunction(sum, UInt64),
    cached_tok SimpleAggregateFunction(sum, UInt64),
    -- attempt-group ledger of numbered attempts (additive)
    g_start SimpleAggregateFunction(sum, UInt64),
    g_first_ok SimpleAggregateFunction(sum, UInt64),
    g_rec SimpleAggregateFunction(sum, UInt64),
    -- unnumbered step spans (parent, start, span id, step name, ok, duration, kind, explicit cost, model, uncached input, cached input, output):
    -- grouped at query time, per run, without a GROUP BY over spans
    unnumbered AggregateFunction(groupArray, Tuple(String, Int64, String, String, Bool, Int64, String, Nullable(Float64), String, UInt64, UInt64, UInt64))
)
ENGINE = AggregatingMergeTree
ORDER BY (project_id, run_id)`;

const STEP = "step_kind NOT IN ('', 'run')";
const COUNTED = "step_kind NOT IN ('', 'run', 'handoff')";
const PRICED_BY_TABLE = `${COUNTED} AND cost_usd IS NULL AND input_tokens + output_tokens > 0`;

export const RUN_ROLLUP_MV_DDL = `CREATE MATERIALIZED VIEW IF NOT EXISTS ${PROTO_DB}.run_rollup_mv TO ${PROTO_DB}.run_rollup AS
SELECT
    project_id, run_id,
    min(start_time) AS run_start,
    max(end_time) AS run_end,
    any(toString(service_name)) AS any_service,
    argMaxState(
        (toUInt8(multiIf(step_kind = 'run', 2, is_run_root, 1, 0)), name, toString(service_name), status_code, toString(run_outcome), toString(error_type),
         toUnixTimestamp64Nano(end_time) - toUnixTimestamp64Nano(start_time), start_time, trace_id),
        (toUInt8(multiIf(step_kind = 'run', 2, is_run_root, 1, 0)), -toUnixTimestamp64Nano(start_time))) AS root,
    count() AS span_count,
    countIf(${STEP}) AS steps,
    sumIf(ifNull(cost_usd, 0), ${COUNTED}) AS explicit_cost,
    sumMapIf(([toString(model)], [input_tokens - least(cached_input_tokens, input_tokens)], [least(cached_input_tokens, input_tokens)], [output_tokens], [toUInt64(1)]),
             ${PRICED_BY_TABLE}) AS usage,
    sumIf(input_tokens, ${COUNTED}) AS in_tok,
    sumIf(output_tokens, ${COUNTED}) AS out_tok,
    sumIf(least(cached_input_tokens, input_tokens), ${COUNTED}) AS cached_tok,
    countIf(${STEP} AND attempt = 1) AS g_start,
    countIf(${STEP} AND attempt = 1 AND status_code != 2) AS g_first_ok,
    countIf(${STEP} AND attempt > 1 AND status_code != 2) AS g_rec,
    groupArrayStateIf((parent_span_id, toUnixTimestamp64Nano(start_time), span_id, toString(step_name), toBool(status_code != 2),
                       toUnixTimestamp64Nano(end_time) - toUnixTimestamp64Nano(start_time), toString(step_kind), cost_usd, toString(model),
                       toUInt64(input_tokens - least(cached_input_tokens, input_tokens)), toUInt64(least(cached_input_tokens, input_tokens)), output_tokens),
                      ${STEP} AND attempt = 0) AS unnumbered
FROM ${PROTO_DB}.spans
GROUP BY project_id, run_id`;

/** Per (run, step name): attempt counts of numbered attempts and their retries' duration and usage. */
export const RUN_STEP_ROLLUP_DDL = `CREATE TABLE IF NOT EXISTS ${PROTO_DB}.run_step_rollup
(
    project_id LowCardinality(String),
    run_id String,
    step_name String,
    step_kind SimpleAggregateFunction(any, String),
    attempts SimpleAggregateFunction(sum, UInt64),
    ok_attempts SimpleAggregateFunction(sum, UInt64),
    g_start SimpleAggregateFunction(sum, UInt64),
    g_first_ok SimpleAggregateFunction(sum, UInt64),
    g_rec SimpleAggregateFunction(sum, UInt64),
    retry_ns SimpleAggregateFunction(sum, Int64),
    retry_explicit_cost SimpleAggregateFunction(sum, Float64),
    retry_usage SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64), Array(UInt64), Array(UInt64)))
)
ENGINE = AggregatingMergeTree
ORDER BY (project_id, run_id, step_name)`;

export const RUN_STEP_ROLLUP_MV_DDL = `CREATE MATERIALIZED VIEW IF NOT EXISTS ${PROTO_DB}.run_step_rollup_mv TO ${PROTO_DB}.run_step_rollup AS
SELECT
    project_id, run_id, sn AS step_name,
    any(sk) AS step_kind,
    count() AS attempts,
    countIf(status_code != 2) AS ok_attempts,
    countIf(attempt = 1) AS g_start,
    countIf(attempt = 1 AND status_code != 2) AS g_first_ok,
    countIf(attempt > 1 AND status_code != 2) AS g_rec,
    sumIf(toUnixTimestamp64Nano(end_time) - toUnixTimestamp64Nano(start_time), attempt > 1) AS retry_ns,
    sumIf(ifNull(cost_usd, 0), attempt > 1 AND sk != 'handoff') AS retry_explicit_cost,
    sumMapIf(([toString(model)], [toUInt64(input_tokens - least(cached_input_tokens, input_tokens))], [toUInt64(least(cached_input_tokens, input_tokens))], [output_tokens]),
             attempt > 1 AND sk != 'handoff' AND cost_usd IS NULL AND input_tokens + output_tokens > 0) AS retry_usage
FROM
(
    SELECT project_id, run_id, toString(step_name) AS sn, toString(step_kind) AS sk, attempt, status_code, start_time, end_time,
        cost_usd, model, input_tokens, output_tokens, cached_input_tokens
    FROM ${PROTO_DB}.spans
    WHERE step_kind NOT IN ('', 'run') AND attempt > 0
)
GROUP BY project_id, run_id, sn`;
