/** Catalog keys of the pickers area: add each key to both objects. */
export const en = {
  'pickers.typeToSearch': 'Type a name or number to search',
  'pickers.choose': 'Choose',
  'pickers.chooseOrg': 'Choose an organization',
  'pickers.searching': 'Searching…',
  'pickers.noMatch': 'Nothing found',
  'pickers.chooseMonth': 'Choose a month',
  'pickers.chooseDate': 'Choose a date',
} as const;

export const ko: Record<keyof typeof en, string> = {
  'pickers.typeToSearch': '이름이나 번호를 입력해 검색',
  'pickers.choose': '선택',
  'pickers.chooseOrg': '조직 선택',
  'pickers.searching': '찾는 중…',
  'pickers.noMatch': '찾은 항목이 없습니다',
  'pickers.chooseMonth': '월 선택',
  'pickers.chooseDate': '날짜 선택',
};
