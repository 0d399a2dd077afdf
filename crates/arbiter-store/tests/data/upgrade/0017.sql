INSERT INTO notice_stops (user_id, notice) SELECT id, 'deadline_tomorrow' FROM users WHERE email = 'president@gthscl.example';
