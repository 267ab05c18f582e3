-- Issue 10: a run's BullMQ jobs must be unique to the run row that made them, not only to its number.
-- A reset database, a restored backup (same ids again) or a second environment on the same Redis would
-- otherwise meet the finished jobs of an older run under the same job id, and BullMQ drops such an
-- add silently as a duplicate: the run then stays REQUESTED forever.
--
-- run_key: a random UUID given to the run row when it is requested; carried in every job id and job
-- payload with the attempt. A worker ignores a job whose key is not its run's.
-- watchdog_*: why the watchdog thinks an active run is stuck (NULL when it is not), and since when.

ALTER TABLE batch_job_log
  ADD COLUMN run_key          uuid         NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN watchdog_reason  varchar(500),
  ADD COLUMN watchdog_at      timestamptz;

COMMENT ON COLUMN batch_job_log.run_key IS 'Random per run row; part of every BullMQ job id of the run';
COMMENT ON COLUMN batch_job_log.watchdog_reason IS 'Why the watchdog considers this active run stalled (NULL: not stalled)';
