# Full-scan filters (run without indexes). One where-clause a line, in the SQL dialect, over
# the Person class of the generated data (SyntheticData, seed 42). 3.228735, -96.967772 is
# where City c0 lies; about one person in a thousand lives near it.
age > 50
age > 50 AND name LIKE 'J%'
name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5
age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > '2023-01-01T00:00:00.000Z'
name LIKE '%an%'
tags = 'a1'
city.population > 5000000
city.objectId IN (City[country = 'BR'].objectId)
distance(3.228735, -96.967772, location.latitude, location.longitude) < km(100)
location.latitude BETWEEN 3 AND 3.5 AND location.longitude BETWEEN -97.2 AND -96.7
Within(location, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE
