-- W3C trace context (traceparent) of the request or job that wrote an event: the consumer continues
-- that trace (OpenTelemetry, issue 25). NULL when tracing is off.
ALTER TABLE event_outbox ADD COLUMN trace_parent varchar(100);
