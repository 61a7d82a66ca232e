-- A hold is given back only when its node is gone, not merely late: every serving node holds an advisory lock of
-- its own (key: hashtextextended('tollgate-node:' || node_id, 0), taken by src/db/postgres/node-guard.ts on its
-- guard connection for as long as the process runs). A node whose renewals fall behind the lease (a loaded event
-- loop, a busy pool) keeps its holds; a node that died has lost its connection and its lock, and its expired holds
-- go back as before. Without this, three loaded nodes served 122 requests against a balance for 100.
CREATE OR REPLACE FUNCTION tollgate_sweep_holds() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  dead text[];
BEGIN
  PERFORM pg_advisory_xact_lock(7461017004);
  -- a node's lock that this transaction can share is held by no session: that node is gone
  SELECT coalesce(array_agg(node_id), '{}') INTO dead
    FROM (SELECT DISTINCT node_id FROM quota_holds WHERE expires_at < now()) expired
    WHERE pg_try_advisory_xact_lock_shared(hashtextextended('tollgate-node:' || node_id, 0));
  PERFORM 1 FROM users WHERE id IN (SELECT user_id FROM quota_holds WHERE expires_at < now() AND node_id = ANY(dead)) ORDER BY id FOR UPDATE;
  PERFORM 1 FROM tokens WHERE id IN (SELECT token_id FROM quota_holds WHERE expires_at < now() AND node_id = ANY(dead) AND token_limited) ORDER BY id FOR UPDATE;
  WITH gone AS (
    DELETE FROM quota_holds WHERE expires_at < now() AND node_id = ANY(dead) RETURNING user_id, token_id, token_limited, amount
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
