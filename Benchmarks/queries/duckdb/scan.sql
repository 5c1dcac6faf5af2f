# DuckDB's where-clauses for ../scan.sql, line by line (quarry bench --duckdb-queries). Tables
# are flattened by Benchmarks/duckdb/peer.py: a GeoPoint is <field>_latitude and
# <field>_longitude, a Date a TIMESTAMP, a Pointer its objectId. Quarry's LIKE folds ASCII case:
# ILIKE here.
age > 50
age > 50 AND name ILIKE 'J%'
name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5
age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > TIMESTAMP '2023-01-01 00:00:00'
name ILIKE '%an%'
list_contains(tags, 'a1')
city IN (SELECT objectId FROM City WHERE population > 5000000)
city IN (SELECT objectId FROM City WHERE country = 'BR')
2 * 6371.0 * asin(sqrt(pow(sin(radians(location_latitude - 3.228735) / 2), 2) + cos(radians(3.228735)) * cos(radians(location_latitude)) * pow(sin(radians(location_longitude + 96.967772) / 2), 2))) < 100
location_latitude BETWEEN 3 AND 3.5 AND location_longitude BETWEEN -97.2 AND -96.7
location_latitude BETWEEN 3 AND 3.5 AND location_longitude BETWEEN -97.2 AND -96.7
