-- reads: 
CREATE OR REPLACE MACRO subtractable_unit(unit) AS unit NOT LIKE '%/%' AND unit <> 'pure';
