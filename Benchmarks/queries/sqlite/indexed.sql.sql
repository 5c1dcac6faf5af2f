-- indexed.sql hand-written for the SQLite store's file, line for line (see scan.sql.sql).
SELECT * FROM Person WHERE age = 42 ORDER BY seq
SELECT * FROM Person WHERE age = 42 AND score < 10 ORDER BY seq
SELECT * FROM Person WHERE name = 'Ian764' ORDER BY seq
SELECT * FROM Person WHERE age IN (7, 21, 42) ORDER BY seq
SELECT * FROM Person WHERE score >= 99.5 ORDER BY seq
SELECT * FROM Person WHERE name LIKE 'Zoe1%' ORDER BY seq
SELECT * FROM Person WHERE location_lat BETWEEN 3 AND 3.5 AND location_lon BETWEEN -97.2 AND -96.7 ORDER BY seq
