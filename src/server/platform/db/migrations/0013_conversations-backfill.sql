-- Custom migration (decision 141): the conversations table of 0012 is written with every new
-- message; this fills it once from the messages that existed before it. A fresh database has none.
insert into conversations (user_id, other_user_id, last_message_id, last_message_at)
select distinct on (user_id, other_user_id) user_id, other_user_id, id, created_at from (
  select from_user_id as user_id, to_user_id as other_user_id, id, created_at from messages
  union all
  select to_user_id, from_user_id, id, created_at from messages
) m
order by user_id, other_user_id, created_at desc, id desc
on conflict do nothing;
