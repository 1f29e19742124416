SELECT CASE WHEN a IS NOT NULL THEN CAST(a AS decimal(10,2)) ELSE -1.5e3 END, `q``x`, "s\u00e9\001" 'more', 10L, 2Y, 1.5BD, x NOT IN (1,2), y IS NOT DISTINCT FROM z FROM t /* c */ -- d
