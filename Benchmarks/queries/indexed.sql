# Lookups that an index answers (run with --index age --index name --index score
# --index location).
age = 42
age = 42 AND score < 10
name = 'Ian764'
age IN (7, 21, 42)
score >= 99.5
name LIKE 'Zoe1%'
location.latitude BETWEEN 3 AND 3.5 AND location.longitude BETWEEN -97.2 AND -96.7
