-- Settlements written with their log rows: a node queues the settlement of every request whose cost fits its
-- reservation and commits them in one call with its next batch of log rows, in one transaction. So a request's
-- charge and its log row reach the database together (a node that dies loses both, and the lease gives the
-- reservation back), and a request costs one round trip on the database instead of two.
--
-- Lock order, to keep batches of several nodes, single settlements, reservations and the sweep free of deadlocks:
-- the sweep's advisory lock (7461017004: settlements shared, the sweep exclusive), then users, tokens and
-- channels, each in ascending id. A reservation takes one user and then that user's token.

CREATE FUNCTION tollgate_settle_batch(p_holds bigint[], p_users integer[], p_tokens integer[], p_limited boolean[], p_channels integer[], p_reserved bigint[], p_actual bigint[], p_now bigint[])
RETURNS TABLE (charged bigint, user_quota bigint, user_used bigint, user_requests bigint, token_remain bigint, token_used bigint, token_accessed bigint)
LANGUAGE plpgsql AS $$
DECLARE
  i integer;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7461017004);
  PERFORM 1 FROM users WHERE id = ANY(p_users) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM tokens WHERE id = ANY(p_tokens) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM channels WHERE id = ANY(p_channels) ORDER BY id FOR UPDATE;
  -- one row per settlement, in the order given, with the balances it left
  FOR i IN 1 .. coalesce(array_length(p_holds, 1), 0) LOOP
    RETURN QUERY SELECT * FROM tollgate_settle(p_holds[i], p_users[i], p_tokens[i], p_limited[i], p_channels[i], p_reserved[i], p_actual[i], p_now[i]);
  END LOOP;
END
$$;
--> statement-breakpoint

-- A single settlement (a cost beyond its reservation is settled at once) excludes the sweep like a batch does.
CREATE OR REPLACE FUNCTION tollgate_settle(p_hold bigint, p_user integer, p_token integer, p_token_limited boolean, p_channel integer, p_reserved bigint, p_actual bigint, p_now bigint)
RETURNS TABLE (charged bigint, user_quota bigint, user_used bigint, user_requests bigint, token_remain bigint, token_used bigint, token_accessed bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_held bigint := p_reserved;
  v_limited boolean := p_token_limited;
  v_extra bigint;
  v_user bigint;
  v_token bigint;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7461017004);
  IF p_hold IS NOT NULL THEN
    DELETE FROM quota_holds h WHERE h.id = p_hold RETURNING h.amount, h.token_limited INTO v_held, v_limited;
    IF NOT FOUND THEN
      v_held := 0;
      v_limited := p_token_limited;
    END IF;
  END IF;
  v_extra := p_actual - v_held; -- negative: a refund
  IF v_extra > 0 THEN
    SELECT u.quota INTO v_user FROM users u WHERE u.id = p_user FOR UPDATE;
    IF v_limited THEN
      SELECT t.remain_quota INTO v_token FROM tokens t WHERE t.id = p_token FOR UPDATE;
    END IF;
    v_extra := greatest(0, least(v_extra, coalesce(v_user, 0), coalesce(v_token, v_extra)));
  END IF;
  charged := v_held + v_extra;
  UPDATE users SET quota = quota - v_extra, used_quota = used_quota + charged, request_count = request_count + 1
    WHERE id = p_user RETURNING quota, used_quota, request_count INTO user_quota, user_used, user_requests;
  UPDATE tokens SET remain_quota = remain_quota - CASE WHEN v_limited THEN v_extra ELSE 0 END, used_quota = used_quota + charged,
      accessed_time = greatest(accessed_time, p_now)
    WHERE id = p_token RETURNING remain_quota, used_quota, accessed_time INTO token_remain, token_used, token_accessed;
  IF charged > 0 AND p_channel > 0 THEN
    UPDATE channels SET used_quota = used_quota + charged WHERE id = p_channel;
  END IF;
  RETURN NEXT;
END
$$;
--> statement-breakpoint

-- The sweep waits for running settlements (it no longer skips when another node sweeps: it then finds nothing),
-- and locks the users and then the tokens it gives back to in ascending id, as everything else does.
CREATE OR REPLACE FUNCTION tollgate_sweep_holds() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7461017004);
  PERFORM 1 FROM users WHERE id IN (SELECT user_id FROM quota_holds WHERE expires_at < now()) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM tokens WHERE id IN (SELECT token_id FROM quota_holds WHERE expires_at < now() AND token_limited) ORDER BY id FOR UPDATE;
  WITH gone AS (
    DELETE FROM quota_holds WHERE expires_at < now() RETURNING user_id, token_id, token_limited, amount
  ), to_users AS (
    UPDATE users u SET quota = u.quota + g.amount
      FROM (SELECT user_id, sum(amount) AS amount FROM gone GROUP BY user_id) g WHERE u.id = g.user_id
  ), to_tokens AS (
    UPDATE tokens t SET remain_quota = t.remain_quota + g.amount
      FROM (SELECT token_id, sum(amount) AS amount FROM gone WHERE token_limited GROUP BY token_id) g WHERE t.id = g.token_id
  )
  SELECT count(*) INTO n FROM gone;
  RETURN n;
END
$$;
