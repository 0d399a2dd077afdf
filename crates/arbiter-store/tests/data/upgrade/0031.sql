-- Schema 31: a person who stops the protest notices (AS-13, issue 32), beside the kinds kept
-- from before the table was copied.
INSERT INTO notice_stops (user_id, notice) SELECT id, 'protest_step' FROM users WHERE email = 'president@gthscl.example';
