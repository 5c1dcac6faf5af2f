-- requests.json hand-written for the SQLite store's file, line for line (see scan.sql.sql).
SELECT count(*) FROM Person WHERE age > 50
SELECT * FROM Person WHERE age > 30 ORDER BY score DESC, seq LIMIT 20
SELECT * FROM Person WHERE name GLOB 'J?n*' ORDER BY seq
SELECT * FROM Person WHERE name LIKE '%an%' ORDER BY seq
SELECT *, 12742 * asin(sqrt(pow(sin(radians(location_lat - 3.228735) / 2), 2) + cos(radians(3.228735)) * cos(radians(location_lat)) * pow(sin(radians(location_lon + 96.967772) / 2), 2))) AS d FROM Person WHERE d <= 100 ORDER BY d, seq
SELECT * FROM Person WHERE location_lat BETWEEN 3 AND 3.5 AND location_lon BETWEEN -97.2 AND -96.7 ORDER BY seq
SELECT * FROM Person WHERE EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'a1') AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'b2') AND age >= 10 ORDER BY seq
SELECT * FROM Person WHERE city IN (SELECT objectId FROM City WHERE population > 5000000) ORDER BY seq
SELECT * FROM Person WHERE name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5 ORDER BY seq
