INSERT INTO reset_requests (email, address, at) VALUES ('advisor@clay.example', '127.0.0.2', '2025-08-08T09:00:00.000000Z');
