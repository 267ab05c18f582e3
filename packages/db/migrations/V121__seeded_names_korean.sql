-- Seeded master rows speak Korean (issue 24, DECISIONS "The web client speaks the user's language"): the demo
-- agency is Korean, and the exception types (V011) and commission types (V090) were seeded with English names
-- and descriptions. Each name and each description becomes Korean only while it still holds the seeded English
-- text, so that an operator's own edit is never overwritten; run again, it changes nothing. The English names
-- stay in code where a text needs them (payment-tax statement-words.ts for an English statement).

UPDATE exception_type_code t
   SET exception_name = CASE WHEN t.exception_name = v.seeded_name THEN v.name ELSE t.exception_name END,
       description    = CASE WHEN t.description = v.seeded_description THEN v.description ELSE t.description END,
       updated_at     = now()
  FROM (VALUES
  ('ADV_RECOVERY',     'Advance recovery',          '선지급 회수',       'Recovery of an advance payment',                          '선지급금 회수'),
  ('BONUS_SPECIAL',    'Special bonus',             '특별 보너스',       'One-off special bonus',                                   '일회성 특별 보너스'),
  ('CAMPAIGN_PRIZE',   'Campaign prize',            '캠페인 시상',       'Sales campaign prize',                                    '영업 캠페인 시상금'),
  ('MISC_PLUS',        'Miscellaneous addition',    '기타 가산',         'Other manual addition',                                   '그 밖의 수동 가산'),
  ('MISC_MINUS',       'Miscellaneous deduction',   '기타 차감',         'Other manual deduction',                                  '그 밖의 수동 차감'),
  ('PENALTY',          'Penalty',                   '제재금',            'Penalty for a compliance breach',                         '준법 위반에 따른 제재금'),
  ('SYSTEM_ADJ_PLUS',  'System adjustment (plus)',  '시스템 조정(가산)', 'Correction of a system calculation, upward',              '시스템 계산 정정(증액)'),
  ('SYSTEM_ADJ_MINUS', 'System adjustment (minus)', '시스템 조정(차감)', 'Correction of a system calculation, downward',            '시스템 계산 정정(감액)'),
  ('RETRO_PLUS',       'Retroactive addition',      '소급 가산',         'Retroactive rate change, upward; created by the batch',   '요율 소급 변경(인상), 배치가 생성'),
  ('RETRO_MINUS',      'Retroactive deduction',     '소급 차감',         'Retroactive rate change, downward; created by the batch', '요율 소급 변경(인하), 배치가 생성')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.exception_code = v.code
   AND (t.exception_name = v.seeded_name OR t.description = v.seeded_description);

UPDATE commission_type t
   SET type_name   = CASE WHEN t.type_name = v.seeded_name THEN v.name ELSE t.type_name END,
       description = CASE WHEN t.description = v.seeded_description THEN v.description ELSE t.description END,
       updated_at  = now()
  FROM (VALUES
  ('RECRUIT',       'Recruit commission',       '모집 수수료',
   'Commission year 1 (rule 1.2.2)',
   '수수료 1차년도 (규칙 1.2.2)'),
  ('MAINTAIN',      'Maintain commission',      '유지 수수료',
   'Commission years 2 to 5 (rule 1.2.3), successor when a succession applies',
   '수수료 2~5차년도 (규칙 1.2.3), 승계가 있으면 승계 설계사에게'),
  ('OVERRIDE',      'Override',                 '오버라이드',
   'Paid to upper agents on lower agents'' commission (step 7)',
   '하위 설계사의 수수료에 대해 상위 설계사에게 지급 (7단계)'),
  ('COLLECTION',    'Collection commission',    '수금 수수료',
   'Premiums falling due from commission year 6 on, to the current agent',
   '수수료 6차년도부터 도래하는 보험료에 대해 현재 담당 설계사에게'),
  ('RENEWAL',       'Renewal commission',       '갱신 수수료',
   'A RENEWAL endorsement effective in the month',
   '해당 월에 효력이 생긴 갱신 배서'),
  ('REINSTATEMENT', 'Reinstatement commission', '부활 수수료',
   'A lapsed contract revived in the month; its unpaid chargeback installments are cancelled',
   '해당 월에 부활한 실효 계약, 미회수 환수 분할분은 취소'),
  ('PERSISTENCY',   'Persistency bonus',        '유지 보너스',
   'Contract still in force at month 13 and at month 25, to the recruiting agent',
   '13회차와 25회차에 유지 중인 계약에 대해 모집 설계사에게'),
  ('INCENTIVE',     'Incentive',                '시책',
   'Incentive program results, approved before they count',
   '시책 프로그램 결과, 승인되어야 반영'),
  ('APPOINTMENT',   'Appointment allowance',    '위촉 지원금',
   'A new agent''s fixed monthly amount in its first months after join_date',
   '신규 설계사가 위촉일 이후 처음 몇 달 동안 받는 월 고정 금액')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.type_code = v.code
   AND (t.type_name = v.seeded_name OR t.description = v.seeded_description);
