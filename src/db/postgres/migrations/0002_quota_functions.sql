-- The relay's quota moves as functions, so a reservation and a settlement are each one round trip (a SELECT)
-- and one transaction, decided by the database on the stored balances (src/db/postgres/repos/quota.ts).
-- Locks are taken in one order everywhere: quota_holds, then users, then tokens, then channels.

-- Take p_amount from the user and, when p_token_limited, from the token: both or neither, never below zero
-- (conditional UPDATEs), and record the hold, which p_node renews until its settlement deletes it.
CREATE FUNCTION tollgate_reserve(p_user integer, p_token integer, p_token_limited boolean, p_amount bigint, p_node text, p_ttl_seconds double precision)
RETURNS TABLE (ok boolean, hold bigint, user_quota bigint, token_remain bigint)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET quota = quota - p_amount WHERE id = p_user AND quota >= p_amount RETURNING quota INTO user_quota;
  IF NOT FOUND THEN
    SELECT u.quota INTO user_quota FROM users u WHERE u.id = p_user;
    IF p_token_limited THEN
      SELECT t.remain_quota INTO token_remain FROM tokens t WHERE t.id = p_token;
      token_remain := coalesce(token_remain, 0);
    END IF;
    ok := false;
    user_quota := coalesce(user_quota, 0);
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_token_limited THEN
    UPDATE tokens SET remain_quota = remain_quota - p_amount WHERE id = p_token AND remain_quota >= p_amount RETURNING remain_quota INTO token_remain;
    IF NOT FOUND THEN
      -- the user's take goes back in the same transaction: nobody ever saw it
      UPDATE users SET quota = quota + p_amount WHERE id = p_user RETURNING quota INTO user_quota;
      SELECT t.remain_quota INTO token_remain FROM tokens t WHERE t.id = p_token;
      ok := false;
      token_remain := coalesce(token_remain, 0);
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  INSERT INTO quota_holds (user_id, token_id, token_limited, amount, node_id, expires_at)
    VALUES (p_user, p_token, p_token_limited, p_amount, p_node, now() + make_interval(secs => p_ttl_seconds))
    RETURNING id INTO hold;
  ok := true;
  RETURN NEXT;
END
$$;
--> statement-breakpoint

-- End a reservation: delete its hold, refund what was not used (or take what was short, only as far as both
-- balances reach), count usage on the user, the token and the channel. A hold already gone (a sweep returned it
-- to the balances) held nothing: the actual cost is charged as far as the balances reach. p_hold NULL: no hold
-- row was made, p_reserved is still in the balances.
CREATE FUNCTION tollgate_settle(p_hold bigint, p_user integer, p_token integer, p_token_limited boolean, p_channel integer, p_reserved bigint, p_actual bigint, p_now bigint)
RETURNS TABLE (charged bigint, user_quota bigint, user_used bigint, user_requests bigint, token_remain bigint, token_used bigint, token_accessed bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_held bigint := p_reserved;
  v_limited boolean := p_token_limited;
  v_extra bigint;
  v_user bigint;
  v_token bigint;
BEGIN
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

-- Give back the holds whose lease ran out (their node died, or stopped renewing): delete them and add their
-- amounts back to the balances, in one statement. One node sweeps at a time (the others find the lock taken
-- and return 0), so two sweeps never lock the same users in different orders. Tollgate's advisory lock keys:
-- 7461017001 migrations, …002 the node guard, …003 the first user, …004 this sweep.
CREATE FUNCTION tollgate_sweep_holds() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(7461017004) THEN
    RETURN 0;
  END IF;
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
