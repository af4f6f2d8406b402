-- CONTRACT §23 (a backup is not a key): a session is kept by the SHA-256 of its id, so a dump of
-- the database opens no session. Sessions already open keep working: their ids are hashed in place.
UPDATE "sessions" SET "sid" = encode(sha256(convert_to("sid", 'UTF8')), 'hex');
