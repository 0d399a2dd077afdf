-- Schema 30: Clay High School's postal address, on two lines (issue 32).
UPDATE schools SET address = '5665 Seaman Rd
Oregon, OH 43616' WHERE name = 'Clay High School';
