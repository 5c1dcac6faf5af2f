-- scan.sql hand-written for the SQLite store's file, line for line. Person is a view naming
-- the store's columns after the fields (geo points as _lat/_lon, pointers as the objectId,
-- arrays as JSON text, dates as epoch milliseconds); seq is insertion order. Quarry's LIKE
-- folds case, as SQLite's LIKE does over ASCII.
SELECT * FROM Person WHERE age > 50 ORDER BY seq
SELECT * FROM Person WHERE age > 50 AND name LIKE 'J%' ORDER BY seq
SELECT * FROM Person WHERE name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5 ORDER BY seq
SELECT * FROM Person WHERE age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > 1672531200000 ORDER BY seq
SELECT * FROM Person WHERE name LIKE '%an%' ORDER BY seq
SELECT * FROM Person WHERE EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'a1') ORDER BY seq
SELECT * FROM Person WHERE city IN (SELECT objectId FROM City WHERE population > 5000000) ORDER BY seq
SELECT * FROM Person WHERE city IN (SELECT objectId FROM City WHERE country = 'BR') ORDER BY seq
SELECT * FROM Person WHERE 12742 * asin(sqrt(pow(sin(radians(location_lat - 3.228735) / 2), 2) + cos(radians(3.228735)) * cos(radians(location_lat)) * pow(sin(radians(location_lon + 96.967772) / 2), 2))) < 100 ORDER BY seq
SELECT * FROM Person WHERE location_lat BETWEEN 3 AND 3.5 AND location_lon BETWEEN -97.2 AND -96.7 ORDER BY seq
SELECT * FROM Person WHERE location_lat BETWEEN 3 AND 3.5 AND location_lon BETWEEN -97.2 AND -96.7 ORDER BY seq
