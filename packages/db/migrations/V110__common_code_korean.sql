-- Common codes speak Korean first (issue 24, DECISIONS "The web client speaks the user's language"): code_name is
-- the Korean name, code_name_en the English one (V002 seeded the English name into both), and `tone` tells the web
-- which colour a tag of the code takes: good (done, in force), busy (in progress), warn (needs a look),
-- bad (failed, refused, ended), plain (a kind, not a state).
ALTER TABLE common_code
  ADD COLUMN tone varchar(10) NOT NULL DEFAULT 'plain' CHECK (tone IN ('good', 'busy', 'warn', 'bad', 'plain'));

COMMENT ON COLUMN common_code.code_name IS 'Korean name (what the users read)';
COMMENT ON COLUMN common_code.code_name_en IS 'English name';
COMMENT ON COLUMN common_code.tone IS 'Colour of a tag showing the code: good | busy | warn | bad | plain';

UPDATE common_code c
   SET code_name = v.ko, code_name_en = v.en, tone = v.tone, updated_at = now()
  FROM (VALUES
  ('AGENT_STATUS', 'ACTIVE', '재직', 'Active', 'good'),
  ('AGENT_STATUS', 'LEAVE', '해촉', 'Left', 'plain'),
  ('AGENT_STATUS', 'SUSPEND', '정지', 'Suspended', 'warn'),

  ('CONTRACT_STATUS', 'ACTIVE', '유지', 'In force', 'good'),
  ('CONTRACT_STATUS', 'LAPSE', '실효', 'Lapsed', 'bad'),
  ('CONTRACT_STATUS', 'REVIVE', '부활', 'Revived', 'good'),
  ('CONTRACT_STATUS', 'TERMINATE', '해지', 'Terminated', 'bad'),

  ('SETTLE_STATUS', 'CALCULATED', '계산 완료', 'Calculated', 'busy'),
  ('SETTLE_STATUS', 'CONFIRMED', '확정', 'Confirmed', 'good'),
  ('SETTLE_STATUS', 'HOLD', '보류', 'On hold', 'warn'),
  ('SETTLE_STATUS', 'PAID', '지급 완료', 'Paid', 'good'),

  ('PAY_CYCLE', 'MONTHLY', '월납', 'Monthly', 'plain'),
  ('PAY_CYCLE', 'QUARTERLY', '분기납', 'Quarterly', 'plain'),
  ('PAY_CYCLE', 'SEMI_ANNUAL', '반기납', 'Semi-annual', 'plain'),
  ('PAY_CYCLE', 'ANNUAL', '연납', 'Annual', 'plain'),
  ('PAY_CYCLE', 'SINGLE', '일시납', 'Single premium', 'plain'),

  ('INSURANCE_TYPE', 'LIFE', '생명보험', 'Life', 'plain'),
  ('INSURANCE_TYPE', 'NON_LIFE', '손해보험', 'Non-life', 'plain'),
  ('INSURANCE_TYPE', 'ANNUITY', '연금보험', 'Annuity', 'plain'),
  ('INSURANCE_TYPE', 'SAVINGS', '저축보험', 'Savings', 'plain'),
  ('INSURANCE_TYPE', 'HEALTH', '건강보험', 'Health', 'plain'),
  ('INSURANCE_TYPE', 'AUTO', '자동차보험', 'Automobile', 'plain'),

  ('ORG_TYPE', 'HQ', '본부', 'Headquarters', 'plain'),
  ('ORG_TYPE', 'BR', '지점', 'Branch', 'plain'),
  ('ORG_TYPE', 'TM', '팀', 'Team', 'plain'),

  ('GRADE_GROUP', 'AGENT', '설계사', 'Sales agent', 'plain'),
  ('GRADE_GROUP', 'MANAGER', '관리자', 'Sales manager', 'plain'),
  ('GRADE_GROUP', 'EXECUTIVE', '임원', 'Executive', 'plain'),

  ('RECONCILE_STATUS', 'PENDING', '대사 전', 'Pending', 'busy'),
  ('RECONCILE_STATUS', 'MATCHED', '일치', 'Matched', 'good'),
  ('RECONCILE_STATUS', 'DIFF', '불일치', 'Difference', 'warn'),

  ('PARSE_STATUS', 'PENDING', '대기', 'Pending', 'busy'),
  ('PARSE_STATUS', 'OK', '파싱 완료', 'Parsed', 'good'),
  ('PARSE_STATUS', 'ERROR', '오류', 'Error', 'bad'),

  ('EXCEPTION_DIRECTION', 'PLUS', '가산', 'Addition', 'plain'),
  ('EXCEPTION_DIRECTION', 'MINUS', '차감', 'Subtraction', 'plain'),

  ('APPROVE_STATUS', 'PENDING', '결재 대기', 'Pending', 'busy'),
  ('APPROVE_STATUS', 'APPROVED', '승인', 'Approved', 'good'),
  ('APPROVE_STATUS', 'REJECTED', '반려', 'Rejected', 'bad'),
  ('APPROVE_STATUS', 'CANCELLED', '취소', 'Cancelled', 'plain'),

  ('PAYMENT_STATUS', 'PENDING', '지급 대기', 'Pending', 'busy'),
  ('PAYMENT_STATUS', 'SENT', '은행 전송', 'Sent to bank', 'busy'),
  ('PAYMENT_STATUS', 'SUCCESS', '이체 완료', 'Transferred', 'good'),
  ('PAYMENT_STATUS', 'FAIL', '이체 실패', 'Failed', 'bad'),

  ('NOTI_TYPE', 'APPROVAL', '결재', 'Approval', 'plain'),
  ('NOTI_TYPE', 'SYSTEM', '시스템', 'System', 'plain'),
  ('NOTI_TYPE', 'NOTICE', '공지', 'Notice', 'plain'),
  ('NOTI_TYPE', 'BATCH', '배치', 'Batch', 'plain'),
  ('NOTI_TYPE', 'PAYMENT', '지급', 'Payment', 'plain'),

  ('FILE_TYPE', 'EXCEL', '엑셀', 'Spreadsheet', 'plain'),
  ('FILE_TYPE', 'CSV', 'CSV', 'CSV', 'plain'),
  ('FILE_TYPE', 'TEXT', '텍스트', 'Text', 'plain'),
  ('FILE_TYPE', 'PDF', 'PDF', 'PDF', 'plain'),
  ('FILE_TYPE', 'IMAGE', '이미지', 'Image', 'plain'),
  ('FILE_TYPE', 'ZIP', '압축 파일', 'Archive', 'plain'),

  ('DATA_FORMAT', 'EXCEL', '엑셀', 'Spreadsheet', 'plain'),
  ('DATA_FORMAT', 'CSV', '구분자 텍스트', 'Delimited text', 'plain'),
  ('DATA_FORMAT', 'FIXED', '고정 길이 텍스트', 'Fixed-width text', 'plain'),
  ('DATA_FORMAT', 'JSON', 'JSON', 'JSON', 'plain'),
  ('DATA_FORMAT', 'XML', 'XML', 'XML', 'plain'),

  ('RECEIVE_METHOD', 'MANUAL', '수동 업로드', 'Manual upload', 'plain'),
  ('RECEIVE_METHOD', 'EDI', 'EDI', 'EDI', 'plain'),
  ('RECEIVE_METHOD', 'FTP', 'FTP', 'FTP', 'plain'),
  ('RECEIVE_METHOD', 'API', 'API', 'API', 'plain'),

  ('TRANSFORM_RULE', 'TRIM', '공백 제거', 'Trim spaces', 'plain'),
  ('TRANSFORM_RULE', 'UPPER', '대문자 변환', 'Upper case', 'plain'),
  ('TRANSFORM_RULE', 'LOWER', '소문자 변환', 'Lower case', 'plain'),
  ('TRANSFORM_RULE', 'DATE', '날짜 변환', 'Parse date', 'plain'),
  ('TRANSFORM_RULE', 'DIVIDE', '나누기', 'Divide', 'plain'),
  ('TRANSFORM_RULE', 'MULTIPLY', '곱하기', 'Multiply', 'plain'),
  ('TRANSFORM_RULE', 'LOOKUP', '조회 변환', 'Lookup', 'plain'),
  ('TRANSFORM_RULE', 'CODE_MAP', '코드 매핑', 'Code mapping', 'plain'),
  ('TRANSFORM_RULE', 'FIXED', '고정값', 'Fixed value', 'plain'),
  ('TRANSFORM_RULE', 'REPLACE', '치환', 'Replace', 'plain'),
  ('TRANSFORM_RULE', 'SUBSTRING', '부분 문자열', 'Substring', 'plain'),
  ('TRANSFORM_RULE', 'CONCAT', '이어 붙이기', 'Concatenate', 'plain'),
  ('TRANSFORM_RULE', 'DEFAULT', '기본값', 'Default value', 'plain'),

  ('CHANGE_TYPE', 'TRANSFER', '이동', 'Transfer', 'plain'),
  ('CHANGE_TYPE', 'PROMOTE', '승격', 'Promotion', 'plain'),
  ('CHANGE_TYPE', 'DEMOTE', '강등', 'Demotion', 'plain'),
  ('CHANGE_TYPE', 'JOIN', '위촉', 'Joined', 'plain'),
  ('CHANGE_TYPE', 'LEAVE', '해촉', 'Left', 'plain'),

  ('TAX_TYPE', 'BUSINESS_INCOME', '사업소득', 'Business income', 'plain'),
  ('TAX_TYPE', 'OTHER_INCOME', '기타소득', 'Other income', 'plain'),

  ('VAT_TYPE', 'NONE', '해당 없음', 'Not applicable', 'plain'),
  ('VAT_TYPE', 'EXEMPT', '면세', 'Exempt', 'plain'),
  ('VAT_TYPE', 'TAXABLE', '과세', 'Taxable', 'plain'),

  ('DEDUCTION_TYPE', 'LOAN', '대출 상환', 'Loan repayment', 'plain'),
  ('DEDUCTION_TYPE', 'ADVANCE', '선지급 회수', 'Advance recovery', 'plain'),
  ('DEDUCTION_TYPE', 'GUARANTEE', '보증보험료', 'Guarantee insurance', 'plain'),
  ('DEDUCTION_TYPE', 'DUES', '협회비', 'Association dues', 'plain'),
  ('DEDUCTION_TYPE', 'AD', '광고비', 'Advertising cost', 'plain'),
  ('DEDUCTION_TYPE', 'CHARGEBACK_PENDING', '미회수 환수금', 'Pending chargeback', 'plain'),
  ('DEDUCTION_TYPE', 'OTHER', '기타', 'Other', 'plain'),

  ('DEDUCTION_STATUS', 'PENDING', '공제 대기', 'Pending', 'busy'),
  ('DEDUCTION_STATUS', 'APPLIED', '공제 완료', 'Applied', 'good'),
  ('DEDUCTION_STATUS', 'CANCELLED', '취소', 'Cancelled', 'plain'),

  ('STATEMENT_TYPE', 'MONTHLY', '월 명세서', 'Monthly statement', 'plain'),
  ('STATEMENT_TYPE', 'ANNUAL', '연간 명세서', 'Annual statement', 'plain'),
  ('STATEMENT_TYPE', 'PROOF', '소득 증명', 'Income proof', 'plain'),

  ('STATEMENT_STATUS', 'GENERATED', '생성', 'Generated', 'busy'),
  ('STATEMENT_STATUS', 'SENT', '발송', 'Sent', 'good'),
  ('STATEMENT_STATUS', 'DOWNLOADED', '다운로드', 'Downloaded', 'good'),
  ('STATEMENT_STATUS', 'CANCELLED', '취소', 'Cancelled', 'plain'),

  ('LIMIT_TYPE', 'TOTAL_RATIO', '총 수수료 비율', 'Total commission ratio', 'plain'),
  ('LIMIT_TYPE', 'FIRST_YEAR_RATIO', '초년도 수수료 비율', 'First-year commission ratio', 'plain'),
  ('LIMIT_TYPE', 'INSTALLMENT_YEARS', '분급 연수', 'Installment years', 'plain'),

  ('LIMIT_UNIT', 'PERCENT', '퍼센트', 'Percent', 'plain'),
  ('LIMIT_UNIT', 'YEAR', '년', 'Year', 'plain'),

  ('PRODUCT_CATEGORY', 'ALL', '전체 상품', 'All products', 'plain'),
  ('PRODUCT_CATEGORY', 'LIFE', '생명보험', 'Life', 'plain'),
  ('PRODUCT_CATEGORY', 'ANNUITY', '연금보험', 'Annuity', 'plain'),
  ('PRODUCT_CATEGORY', 'SAVINGS', '저축보험', 'Savings', 'plain'),
  ('PRODUCT_CATEGORY', 'EXCLUDED_AUTO', '제외: 자동차보험', 'Excluded: automobile', 'plain'),
  ('PRODUCT_CATEGORY', 'EXCLUDED_HEALTH', '제외: 건강보험', 'Excluded: health', 'plain'),

  ('HOLD_REASON', 'DOC_MISSING', '서류 미비', 'Documents missing', 'warn'),
  ('HOLD_REASON', 'DISPUTE', '이의제기 진행 중', 'Dispute in progress', 'warn'),
  ('HOLD_REASON', 'INVESTIGATION', '조사 중', 'Under investigation', 'warn'),
  ('HOLD_REASON', 'ACCOUNT_ERROR', '계좌 오류', 'Bank account problem', 'warn'),
  ('HOLD_REASON', 'CHARGEBACK_RISK', '환수 위험', 'Chargeback risk', 'warn'),
  ('HOLD_REASON', 'OTHER', '기타', 'Other', 'warn'),
  ('HOLD_REASON', 'LICENSE', '자격 미유효', 'License not valid', 'warn'),
  ('HOLD_REASON', 'TRAINING', '교육 시간 미달', 'Training hours not met', 'warn'),
  ('HOLD_REASON', 'TERMINATION', '해촉 정산으로 처리', 'Settled by a termination settlement', 'plain'),

  ('USER_STATUS', 'ACTIVE', '사용', 'Active', 'good'),
  ('USER_STATUS', 'LOCKED', '잠김', 'Locked', 'warn'),
  ('USER_STATUS', 'RETIRED', '퇴직', 'Retired', 'plain'),
  ('USER_STATUS', 'EXPIRED', '만료', 'Expired', 'bad'),

  ('LEDGER_STATUS', 'CALCULATED', '계산 완료', 'Calculated', 'busy'),
  ('LEDGER_STATUS', 'CONFIRMED', '확정', 'Confirmed', 'good'),
  ('LEDGER_STATUS', 'HOLD', '보류', 'On hold', 'warn'),
  ('LEDGER_STATUS', 'PAID', '지급 완료', 'Paid', 'good'),

  ('EXCEPTION_STATUS', 'NEW', '신규', 'New', 'busy'),
  ('EXCEPTION_STATUS', 'APPLIED', '반영', 'Applied', 'good'),
  ('EXCEPTION_STATUS', 'CANCELLED', '취소', 'Cancelled', 'plain'),

  ('BATCH_STATUS', 'REQUESTED', '요청', 'Requested', 'busy'),
  ('BATCH_STATUS', 'RUNNING', '실행 중', 'Running', 'busy'),
  ('BATCH_STATUS', 'COMPLETED', '완료', 'Completed', 'good'),
  ('BATCH_STATUS', 'FAILED', '실패', 'Failed', 'bad'),

  ('RESOLVE_STATUS', 'OPEN', '미처리', 'Open', 'warn'),
  ('RESOLVE_STATUS', 'RESOLVED', '처리 완료', 'Resolved', 'good'),
  ('RESOLVE_STATUS', 'IGNORED', '무시', 'Ignored', 'plain'),

  ('PARSE_ERROR_TYPE', 'INVALID_INPUT', '입력값 오류', 'Invalid input', 'bad'),
  ('PARSE_ERROR_TYPE', 'UNKNOWN_TYPE', '알 수 없는 데이터 유형', 'Unknown data type', 'bad'),
  ('PARSE_ERROR_TYPE', 'NO_MAPPING', '항목 매핑 없음', 'No field mapping', 'bad'),
  ('PARSE_ERROR_TYPE', 'JSON_PARSE', '원본 내용 판독 불가', 'Unreadable raw content', 'bad'),
  ('PARSE_ERROR_TYPE', 'REQUIRED', '필수 항목 누락', 'Required field missing', 'bad'),
  ('PARSE_ERROR_TYPE', 'TRANSFORM_FAIL', '변환 실패', 'Transform failed', 'bad'),
  ('PARSE_ERROR_TYPE', 'NO_POLICY', '증권번호 누락', 'Policy number missing', 'bad'),
  ('PARSE_ERROR_TYPE', 'CONTRACT_NOT_FOUND', '계약 없음', 'Contract not found', 'bad'),
  ('PARSE_ERROR_TYPE', 'CODE_MAP_FAIL', '코드 매핑 실패', 'Code mapping failed', 'bad'),

  ('INSTALLMENT_STATUS', 'SCHEDULED', '예정', 'Scheduled', 'busy'),
  ('INSTALLMENT_STATUS', 'PAID', '납입 완료', 'Paid', 'good'),
  ('INSTALLMENT_STATUS', 'DEFERRED', '유예', 'Deferred', 'warn'),
  ('INSTALLMENT_STATUS', 'CANCELLED', '취소', 'Cancelled', 'plain'),

  ('DISPUTE_STATUS', 'OPEN', '접수', 'Open', 'warn'),
  ('DISPUTE_STATUS', 'IN_REVIEW', '검토 중', 'In review', 'busy'),
  ('DISPUTE_STATUS', 'APPROVED', '인정', 'Approved', 'good'),
  ('DISPUTE_STATUS', 'REJECTED', '기각', 'Rejected', 'bad'),

  ('APPROVAL_TARGET', 'WITHDRAW', '출금 요청', 'Withdraw request', 'plain'),
  ('APPROVAL_TARGET', 'SETTLE', '정산', 'Settlement', 'plain'),
  ('APPROVAL_TARGET', 'DISPUTE', '이의제기', 'Dispute', 'plain'),
  ('APPROVAL_TARGET', 'INCENTIVE', '시상', 'Incentive', 'plain'),

  ('ACCOUNT_TYPE', 'DEBIT', '차변', 'Debit', 'plain'),
  ('ACCOUNT_TYPE', 'CREDIT', '대변', 'Credit', 'plain'),
  ('ACCOUNT_TYPE', 'BOTH', '차변·대변', 'Debit and credit', 'plain'),

  ('MENU_TYPE', 'DIRECTORY', '폴더', 'Directory', 'plain'),
  ('MENU_TYPE', 'PAGE', '화면', 'Page', 'plain'),
  ('MENU_TYPE', 'LINK', '링크', 'Link', 'plain'),

  ('PERM_CODE', 'READ', '조회', 'Read', 'plain'),
  ('PERM_CODE', 'CREATE', '등록', 'Create', 'plain'),
  ('PERM_CODE', 'UPDATE', '수정', 'Update', 'plain'),
  ('PERM_CODE', 'DELETE', '삭제', 'Delete', 'plain'),
  ('PERM_CODE', 'APPROVE', '승인', 'Approve', 'plain'),
  ('PERM_CODE', 'EXPORT', '내보내기', 'Export', 'plain'),
  ('PERM_CODE', 'PRINT', '인쇄', 'Print', 'plain'),
  ('PERM_CODE', 'EXECUTE', '실행', 'Execute', 'plain'),

  ('DOMAIN_CATEGORY', 'IDENTIFIER', '식별자', 'Identifier', 'plain'),
  ('DOMAIN_CATEGORY', 'PII', '개인정보', 'Personal data', 'plain'),
  ('DOMAIN_CATEGORY', 'MONEY', '금액', 'Money', 'plain'),
  ('DOMAIN_CATEGORY', 'RATE', '비율', 'Rate', 'plain'),
  ('DOMAIN_CATEGORY', 'DATE', '날짜·시간', 'Date and time', 'plain'),
  ('DOMAIN_CATEGORY', 'CODE', '코드', 'Code', 'plain'),
  ('DOMAIN_CATEGORY', 'TEXT', '텍스트', 'Text', 'plain'),
  ('DOMAIN_CATEGORY', 'JSON', 'JSON', 'JSON', 'plain'),
  ('DOMAIN_CATEGORY', 'AUDIT', '감사', 'Audit', 'plain'),
  ('DOMAIN_CATEGORY', 'WORKFLOW', '업무 흐름', 'Workflow', 'plain'),
  ('DOMAIN_CATEGORY', 'SETTLEMENT_BIZ', '정산 업무', 'Settlement business', 'plain'),
  ('DOMAIN_CATEGORY', 'FILE', '파일', 'File', 'plain'),
  ('DOMAIN_CATEGORY', 'TAX', '세금', 'Tax', 'plain'),
  ('DOMAIN_CATEGORY', 'BANKING', '금융', 'Banking', 'plain'),
  ('DOMAIN_CATEGORY', 'PROFILE', '프로필', 'Profile', 'plain'),
  ('DOMAIN_CATEGORY', 'RESUME', '이력', 'Resume', 'plain'),

  ('MASKING_TYPE', 'NAME', '이름', 'Name', 'plain'),
  ('MASKING_TYPE', 'PHONE', '전화번호', 'Phone number', 'plain'),
  ('MASKING_TYPE', 'RESIDENT_NO', '주민등록번호', 'Resident number', 'plain'),
  ('MASKING_TYPE', 'ACCOUNT_NO', '계좌번호', 'Account number', 'plain'),
  ('MASKING_TYPE', 'EMAIL', '이메일', 'E-mail', 'plain'),
  ('MASKING_TYPE', 'FULL', '전체 숨김', 'Fully hidden', 'plain'),

  ('CALL_TYPE', 'BANK', '은행', 'Bank', 'plain'),
  ('CALL_TYPE', 'MESSAGE', '메시지', 'Message', 'plain'),
  ('CALL_TYPE', 'OTHER', '기타', 'Other', 'plain')
  ) AS v(group_code, code, ko, en, tone)
 WHERE c.group_code = v.group_code AND c.code = v.code;
