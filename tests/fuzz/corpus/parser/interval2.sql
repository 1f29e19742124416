SELECT 2 days, '3' hours, (a) month, -1.5 seconds, 1 AS day FROM t;
