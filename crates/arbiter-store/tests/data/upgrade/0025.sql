-- Schema 25: two attempts let through from one address, one from another.
INSERT INTO address_attempts (address, at) VALUES ('198.51.100.7', '2026-12-05T07:00:00.000000Z');
INSERT INTO address_attempts (address, at) VALUES ('198.51.100.7', '2026-12-05T07:00:01.000000Z');
INSERT INTO address_attempts (address, at) VALUES ('2001:db8::1', '2026-12-05T07:00:02.000000Z');
