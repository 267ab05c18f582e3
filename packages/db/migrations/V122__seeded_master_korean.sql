-- More seeded master rows speak Korean (issue 24, DECISIONS "The web client speaks the user's language"; V121 did
-- the exception types and commission types): account codes (V032, V050), approval lines (V060, V086, V092, V095),
-- roles (V002; the web names a role from role_name on the users, roles and permission screens), regulatory limits
-- and chargeback grades (V011), common-code group names (V002, V111, V120) and data domains (V002). Each name and
-- each description becomes Korean only while it still holds the seeded English text, so that an operator's own
-- edit is never overwritten; run again, it changes nothing. Group descriptions that only name a column
-- (`agent.status`) stay as they are. Grades are named by the demo data (book-plan.ts GRADE_WORDS), system settings
-- and menus by the web catalog, the data dictionary labels are not covered here.

UPDATE account_code t
   SET account_name = CASE WHEN t.account_name = v.seeded_name THEN v.name ELSE t.account_name END,
       description  = CASE WHEN t.description = v.seeded_description THEN v.description ELSE t.description END,
       updated_at   = now()
  FROM (VALUES
  ('5110', 'Commission expense',      '지급수수료',
   'Agent commission recognised as expense (debit of accountingEntryGenerate)',
   '비용으로 인식한 설계사 수수료 (회계 분개 생성의 차변)'),
  ('2110', 'Commission payable',      '미지급수수료',
   'Agent commission owed until paid (credit of accountingEntryGenerate)',
   '지급 전까지 설계사에게 줄 수수료 (회계 분개 생성의 대변)'),
  ('2120', 'Withholding tax payable', '원천세 예수금',
   'Income and local tax withheld from payments, owed to the tax office',
   '지급 시 원천징수한 소득세와 지방소득세, 세무서에 납부할 금액'),
  ('1110', 'Cash and deposits',       '현금및예금',
   'Bank account the payments are made from',
   '지급이 나가는 은행 계좌'),
  ('1130', 'Agent receivables',       '설계사 미수금',
   'Loans, advances and other amounts owed by agents, recovered by payment deductions',
   '설계사에게 받을 대여금, 선지급금 등, 지급 공제로 회수'),
  ('1350', 'Input VAT',               '부가세대급금',
   'VAT paid to TAXABLE agents on their commission (reclaimable)',
   '과세 설계사에게 수수료와 함께 지급한 부가가치세 (공제 대상)')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.account_code = v.code
   AND (t.account_name = v.seeded_name OR t.description = v.seeded_description);

UPDATE approval_line t
   SET line_name   = CASE WHEN t.line_name = v.seeded_name THEN v.name ELSE t.line_name END,
       description = CASE WHEN t.description = v.seeded_description THEN v.description ELSE t.description END,
       updated_at  = now()
  FROM (VALUES
  ('WITHDRAW_DEFAULT',   'Withdraw request',        '출금 요청',       'Administrator, then super administrator', '관리자, 이어서 최고 관리자'),
  ('SETTLE_DEFAULT',     'Settlement confirmation', '정산 확정',       'One administrator',                       '관리자 1인'),
  ('DISPUTE_DEFAULT',    'Commission dispute',      '수수료 이의제기', 'One administrator',                       '관리자 1인'),
  ('SIMULATION_DEFAULT', 'Simulation adoption',     '시뮬레이션 반영', 'One administrator other than the author', '작성자가 아닌 관리자 1인'),
  ('INCENTIVE_DEFAULT',  'Incentive payment',       '시책 지급',       'One administrator',                       '관리자 1인')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.line_code = v.code
   AND (t.line_name = v.seeded_name OR t.description = v.seeded_description);

-- The same words as the web catalog's role.<code> (header bar).
UPDATE role t
   SET role_name  = CASE WHEN t.role_name = v.seeded_name THEN v.name ELSE t.role_name END,
       role_desc  = CASE WHEN t.role_desc = v.seeded_description THEN v.description ELSE t.role_desc END,
       updated_at = now()
  FROM (VALUES
  ('SUPER_ADMIN', 'Super Administrator', '최고 관리자',
   'Every permission of every menu',
   '모든 메뉴의 모든 권한'),
  ('ADMIN',       'Administrator',       '관리자',
   'Everything outside system administration, plus selected system menus',
   '시스템 관리를 뺀 모든 메뉴와 일부 시스템 메뉴'),
  ('MANAGER',     'Manager',             '매니저',
   'Read, create, update and export outside system administration',
   '시스템 관리를 뺀 메뉴의 조회, 등록, 수정, 내보내기'),
  ('AGENT',       'Agent',               '설계사',
   'Own ledgers and settlements (read only)',
   '본인의 원장과 정산 (조회만)')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.role_code = v.code
   AND (t.role_name = v.seeded_name OR t.role_desc = v.seeded_description);

UPDATE regulatory_limit t
   SET description = v.description, updated_at = now()
  FROM (VALUES
  ('TOTAL_RATIO',       'Total commission of a contract at most 1200 % of the premium', '계약의 총 수수료는 보험료의 1200 % 이내'),
  ('FIRST_YEAR_RATIO',  'First-year commission at most 35 % of the premium',            '초년도 수수료는 보험료의 35 % 이내'),
  ('INSTALLMENT_YEARS', 'Commission installments spread over at most 7 years',          '수수료 분급은 최대 7년')
  ) AS v(limit_type, seeded_description, description)
 WHERE t.limit_type = v.limit_type AND t.product_category = 'ALL' AND t.effective_from = DATE '2000-01-01'
   AND t.description = v.seeded_description;

UPDATE chargeback_grade t
   SET description = v.description, updated_at = now()
  FROM (VALUES
  (1,  'Months 1-12',        '1~12개월'),
  (13, 'Months 13-24',       '13~24개월'),
  (25, 'Months 25-36',       '25~36개월'),
  (37, 'Months 37-84',       '37~84개월'),
  (85, 'Month 85 and later', '85개월 이후')
  ) AS v(months_from, seeded_description, description)
 WHERE t.product_category IS NULL AND t.months_from = v.months_from AND t.effective_from = DATE '2000-01-01'
   AND t.description = v.seeded_description;

UPDATE common_code_group t
   SET group_name  = CASE WHEN t.group_name = v.seeded_name THEN v.name ELSE t.group_name END,
       description = CASE WHEN v.seeded_description IS NOT NULL AND t.description = v.seeded_description
                          THEN v.description ELSE t.description END,
       updated_at  = now()
  FROM (VALUES
  ('AGENT_STATUS',         'Agent status',               '설계사 상태',          NULL, NULL),
  ('CONTRACT_STATUS',      'Contract status',            '계약 상태',            NULL, NULL),
  ('SETTLE_STATUS',        'Settlement status',          '정산 상태',            NULL, NULL),
  ('PAY_CYCLE',            'Premium pay cycle',          '보험료 납입 주기',
   'contract.pay_cycle; attr1 = months between premiums (0 = single)', 'contract.pay_cycle; attr1 = 납입 간격 개월 수 (0 = 일시납)'),
  ('INSURANCE_TYPE',       'Insurance type',             '보험 종류',            NULL, NULL),
  ('ORG_TYPE',             'Organization type',          '조직 유형',            NULL, NULL),
  ('GRADE_GROUP',          'Grade group',                '직급 그룹',            NULL, NULL),
  ('RECONCILE_STATUS',     'Reconcile status',           '대사 상태',
   'ledger and reconciliation reconcile status', '원장과 대사 결과의 대사 상태'),
  ('PARSE_STATUS',         'Parse status',               '파싱 상태',            NULL, NULL),
  ('EXCEPTION_DIRECTION',  'Exception direction',        '가감 구분',            NULL, NULL),
  ('APPROVE_STATUS',       'Approval status',            '승인 상태',
   'approve_status of exceptions and approvals', '예외 항목과 결재의 approve_status'),
  ('PAYMENT_STATUS',       'Payment status',             '지급 상태',            NULL, NULL),
  ('NOTI_TYPE',            'Notification type',          '알림 유형',            NULL, NULL),
  ('FILE_TYPE',            'File type',                  '파일 유형',
   'attachment and upload file kinds; attr1 = extensions', '첨부 파일과 업로드 파일의 종류; attr1 = 확장자'),
  ('DATA_FORMAT',          'Data format',                '데이터 형식',          NULL, NULL),
  ('RECEIVE_METHOD',       'Receive method',             '수신 방법',            NULL, NULL),
  ('TRANSFORM_RULE',       'Transform rule',             '변환 규칙',
   'transform rules of mappings and upload templates', '항목 매핑과 업로드 템플릿의 변환 규칙'),
  ('CHANGE_TYPE',          'Organization change type',   '조직 변경 유형',       NULL, NULL),
  ('TAX_TYPE',             'Tax type',                   '소득 구분',
   'agent.tax_type; attr1 = system_config rate key', 'agent.tax_type; attr1 = 세율의 system_config 키'),
  ('VAT_TYPE',             'VAT type',                   '부가세 구분',          NULL, NULL),
  ('DEDUCTION_TYPE',       'Deduction type',             '공제 유형',            NULL, NULL),
  ('DEDUCTION_STATUS',     'Deduction status',           '공제 상태',            NULL, NULL),
  ('STATEMENT_TYPE',       'Statement type',             '명세서 유형',          NULL, NULL),
  ('STATEMENT_STATUS',     'Statement status',           '명세서 상태',          NULL, NULL),
  ('LIMIT_TYPE',           'Regulatory limit type',      '규제 한도 유형',       NULL, NULL),
  ('LIMIT_UNIT',           'Regulatory limit unit',      '규제 한도 단위',       NULL, NULL),
  ('PRODUCT_CATEGORY',     'Product category',           '상품 분류',
   'regulatory limits, installment ratios, chargeback grades', '규제 한도, 분급 비율, 환수 등급'),
  ('HOLD_REASON',          'Settlement hold reason',     '정산 보류 사유',
   'settle_master hold reason code', 'settle_master의 보류 사유 코드'),
  ('USER_STATUS',          'User status',                '사용자 상태',          NULL, NULL),
  ('LEDGER_STATUS',        'Ledger status',              '원장 상태',
   'recruit/maintain ledger status', '모집·유지 원장의 상태'),
  ('EXCEPTION_STATUS',     'Exception ledger status',    '예외 원장 상태',       NULL, NULL),
  ('BATCH_STATUS',         'Batch job status',           '배치 작업 상태',       NULL, NULL),
  ('RESOLVE_STATUS',       'Parse error resolve status', '파싱 오류 처리 상태',  NULL, NULL),
  ('PARSE_ERROR_TYPE',     'Parse error type',           '파싱 오류 유형',       NULL, NULL),
  ('INSTALLMENT_STATUS',   'Installment plan status',    '분급 계획 상태',       NULL, NULL),
  ('DISPUTE_STATUS',       'Dispute status',             '이의제기 상태',        NULL, NULL),
  ('APPROVAL_TARGET',      'Approval target type',       '결재 대상 유형',
   'approval request targetType', '결재 요청의 targetType'),
  ('ACCOUNT_TYPE',         'Account type',               '계정 유형',            NULL, NULL),
  ('MENU_TYPE',            'Menu type',                  '메뉴 유형',            NULL, NULL),
  ('PERM_CODE',            'Permission code',            '권한 코드',            NULL, NULL),
  ('DOMAIN_CATEGORY',      'Data domain category',       '데이터 도메인 분류',   NULL, NULL),
  ('MASKING_TYPE',         'Masking type',               '마스킹 유형',          NULL, NULL),
  ('CALL_TYPE',            'External call type',         '외부 호출 유형',       NULL, NULL),
  ('CHANGE_LOG_ACTION',    'Change log action',          '변경 이력 동작',       NULL, NULL),
  ('LOGIN_TYPE',           'Login type',                 '로그인 방식',          NULL, NULL),
  ('LOGIN_RESULT',         'Login result',               '로그인 결과',          NULL, NULL),
  ('MAPPING_TARGET_TABLE', 'Mapping target ledger',      '매핑 대상 원장',       NULL, NULL),
  ('MAPPING_DATA_TYPE',    'Mapping data type',          '매핑 데이터 유형',     NULL, NULL),
  ('UPLOAD_TARGET_TYPE',   'Upload column type',         '업로드 열 유형',       NULL, NULL),
  ('CHARGEBACK_STATUS',    'Chargeback status',          '환수 상태',            NULL, NULL),
  ('EXCEPTION_SOURCE',     'Exception source',           '예외 출처',            NULL, NULL),
  ('RECON_STATUS',         'Reconciliation result',      '대사 결과',            NULL, NULL),
  ('AGENT_CONTRACT_TYPE',  'Agent contract type',        '위촉 계약 유형',       NULL, NULL),
  ('LICENSE_TYPE',         'License type',               '자격 종류',            NULL, NULL),
  ('LICENSE_STATUS',       'License status',             '자격 상태',            NULL, NULL),
  ('TRAINING_STATUS',      'Training status',            '교육 상태',            NULL, NULL),
  ('COMPANY_TYPE',         'Company type',               '보험사 유형',          NULL, NULL),
  ('COMPLAINT_TYPE',       'Complaint type',             '민원 유형',            NULL, NULL),
  ('COMPLAINT_STATUS',     'Complaint status',           '민원 상태',            NULL, NULL),
  ('ENDORSE_TYPE',         'Endorsement type',           '배서 유형',            NULL, NULL),
  ('ENDORSEMENT_STATUS',   'Endorsement status',         '배서 상태',            NULL, NULL),
  ('SUCCESSION_STATUS',    'Succession status',          '승계 상태',            NULL, NULL),
  ('REPORT_FILE_STATUS',   'Report file status',         '신고 파일 상태',
   'tax report file status', '세무 신고 파일의 상태'),
  ('BANK',                 'Bank',                       '은행',
   'agent.bank_code, payment.bank_code (KFTC bank code)', 'agent.bank_code, payment.bank_code (금융결제원 은행 코드)')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.group_code = v.code
   AND (t.group_name = v.seeded_name OR t.description = v.seeded_description);

UPDATE data_domain t
   SET domain_name = CASE WHEN t.domain_name = v.seeded_name THEN v.name ELSE t.domain_name END,
       description = CASE WHEN t.description = v.seeded_description THEN v.description ELSE t.description END,
       updated_at  = now()
  FROM (VALUES
  ('ID',              'Identifier',            '식별자',          'Generated 64-bit key',                                        '자동 생성되는 64비트 키'),
  ('LOGIN_ID',        'Login id',              '로그인 ID',       'User login id',                                               '사용자의 로그인 ID'),
  ('POLICY_NO',       'Policy number',         '증권번호',        'Insurance policy number (unique)',                            '보험 증권번호 (중복 불가)'),
  ('NAME',            'Person name',           '성명',            'Name of a person; masked keeping first and last character',   '사람의 이름, 첫 글자와 끝 글자만 남기고 가림'),
  ('RESIDENT_NO',     'Resident number',       '주민등록번호',    'Encrypted at rest (AES-256-CBC)',                             '암호화하여 저장 (AES-256-CBC)'),
  ('PHONE',           'Phone number',          '전화번호',        'Masked keeping first group and last four digits',             '앞자리와 끝 네 자리만 남기고 가림'),
  ('EMAIL',           'E-mail address',        '이메일 주소',     'Masked keeping first character and domain',                   '첫 글자와 도메인만 남기고 가림'),
  ('PASSWORD_HASH',   'Password hash',         '비밀번호 해시',   'BCrypt hash; never returned',                                 'BCrypt 해시, 응답에 싣지 않음'),
  ('AMOUNT',          'Amount',                '금액',            'Money, decimal(15,2)',                                        '금액, decimal(15,2)'),
  ('RATE',            'Rate (percent)',        '비율(%)',         'Percent, decimal(7,4); 3.3 means 3.3 %',                      '퍼센트, decimal(7,4), 3.3은 3.3 %'),
  ('DATE',            'Date',                  '날짜',            'Calendar date',                                               '달력 날짜'),
  ('DATETIME',        'Timestamp',             '일시',            'Point in time with offset',                                   '시간대 오프셋이 있는 시각'),
  ('YN',              'Y/N flag',              'Y/N 구분',        'Character flag Y or N',                                       '문자 Y 또는 N'),
  ('FLAG',            'Boolean flag',          '참/거짓 구분',    'true/false',                                                  '참(true) 또는 거짓(false)'),
  ('CODE',            'Code',                  '코드',            'Common code value',                                           '공통 코드 값'),
  ('NAME_TEXT',       'Name / title',          '명칭',            'Non-personal name or title',                                  '사람이 아닌 대상의 이름이나 제목'),
  ('DESCRIPTION',     'Description',           '설명',            'Free text',                                                   '자유 텍스트'),
  ('JSON',            'JSON document',         'JSON 문서',       'Structured snapshot',                                         '구조화된 스냅샷'),
  ('AUDIT_USER',      'Audit user',            '처리자',          'users.user_id set by the service',                            '서비스가 기록하는 users.user_id'),
  ('AUDIT_TIME',      'Audit time',            '처리 일시',       'Set by the service',                                          '서비스가 기록'),
  ('IP_ADDRESS',      'IP address',            'IP 주소',         'Client address',                                              '접속한 클라이언트의 주소'),
  ('STATUS',          'Status',                '상태',            'State of a record (see the value set of its common-code group)', '레코드의 상태 (해당 공통 코드 그룹의 값)'),
  ('APPROVE_STATUS',  'Approval status',       '승인 상태',       'PENDING, APPROVED, REJECTED, CANCELLED',                      '결재 대기(PENDING), 승인(APPROVED), 반려(REJECTED), 취소(CANCELLED)'),
  ('SETTLE_MONTH',    'Settle month',          '정산월',          'Settlement month',                                            '정산 대상 월'),
  ('COMMISSION_YEAR', 'Commission year',       '수수료 차년도',   '1 = recruit, 2 to 5 = maintain',                              '1 = 모집, 2~5 = 유지'),
  ('FILE_PATH',       'File path',             '파일 경로',       'Stored file location',                                        '저장된 파일의 위치'),
  ('FILE_SIZE',       'File size',             '파일 크기',       'Bytes',                                                       '바이트'),
  ('TAX_TYPE',        'Tax type',              '소득 구분',       'BUSINESS_INCOME or OTHER_INCOME',                             '사업소득(BUSINESS_INCOME) 또는 기타소득(OTHER_INCOME)'),
  ('BUSINESS_NO',     'Business registration', '사업자등록번호',  'Business registration number',                                '사업자등록번호 (999-99-99999)'),
  ('BANK_CODE',       'Bank code',             '은행 코드',       'Bank identifier',                                             '은행을 나타내는 코드'),
  ('ACCOUNT_NO',      'Bank account number',   '계좌번호',        'Encrypted at rest (AES-256-CBC)',                             '암호화하여 저장 (AES-256-CBC)'),
  ('LICENSE_NO',      'License number',        '자격 번호',       'Agent license number',                                        '설계사의 자격 번호'),
  ('GRADE',           'Grade',                 '직급',            'grade.grade_id of an agent',                                  '설계사의 grade.grade_id'),
  ('CAREER_TEXT',     'Career history',        '경력 사항',       'Career, education or training history',                       '경력, 학력 또는 교육 이력'),
  ('TRAINING_HOURS',  'Training hours',        '교육 시간',       'Completed training hours',                                    '이수한 교육 시간')
  ) AS v(code, seeded_name, name, seeded_description, description)
 WHERE t.domain_code = v.code
   AND (t.domain_name = v.seeded_name OR t.description = v.seeded_description);
